/**
 * Google's OpenID Connect ID token, as the token endpoint returns it beside the access
 * token. It came straight from the token endpoint over TLS to us, so its signature need not
 * be checked (OpenID Connect Core 1.0 §3.1.3.7, item 6); the claims still are: it must be
 * issued by Google, for our client id, and not expired. Its `email` and `email_verified`
 * say who signed in without a userinfo request.
 */
import { loadArctic } from "./arctic.ts";
import { z } from "zod";
import { str } from "../../base/text.ts";

/** Google documents both forms of its issuer. */
export const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

const claims = z.object({
  iss: str(),
  aud: z.union([str(), z.array(str())]),
  exp: z.number(),
  email: str().max(320).optional(),
  email_verified: z.boolean().optional(),
});

export type IdTokenIdentity = { email?: string; emailVerified: boolean };

/** The identity an ID token vouches for; throws (the caller answers 502) when it is not ours. */
export async function readGoogleIdToken(
  idToken: string,
  clientId: string,
  now: number,
): Promise<IdTokenIdentity> {
  const { decodeIdToken } = await loadArctic();
  const c = claims.parse(decodeIdToken(idToken));
  if (!GOOGLE_ISSUERS.includes(c.iss)) throw new Error("ID token from another issuer");
  const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
  if (!aud.includes(clientId)) throw new Error("ID token for another client");
  if (c.exp * 1000 <= now) throw new Error("ID token expired");
  return { email: c.email, emailVerified: c.email_verified === true };
}
