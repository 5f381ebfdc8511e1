/**
 * The provider's answer to "who is this, and is the email verified?". GitHub: the primary
 * address from /user/emails (USERINFO_URL + "/emails") with its `verified` flag. Google: the
 * ID token's `email` and `email_verified` (id_token.ts) when the token response has one
 * with an email, else the OpenID userinfo's. An unverified email comes back as such and
 * never links to an existing account (link.ts).
 */
import { z } from "zod";
import { str } from "../../base/text.ts";
import type { OAuthProviderConfig, OAuthProviderName } from "../../config.ts";
import { readGoogleIdToken } from "./id_token.ts";

export type OAuthProfile = { email: string; emailVerified: boolean };

/** What the token endpoint answered: the access token, and Google's ID token when sent. */
export type OAuthGrant = { accessToken: string; idToken?: string };

export const OAUTH_LABELS: Record<OAuthProviderName, string> = {
  github: "GitHub",
  google: "Google",
};

export const OAUTH_SCOPES: Record<OAuthProviderName, string[]> = {
  github: ["read:user", "user:email"],
  google: ["openid", "email"],
};

const TIMEOUT_MS = 10_000;

async function getJson(url: string, accessToken: string): Promise<unknown> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`userinfo answered ${res.status}`);
  }
  return await res.json();
}

const githubEmails = z.array(
  z.object({ email: str().max(320), primary: z.boolean(), verified: z.boolean() }),
);
const googleUser = z.object({ email: str().max(320), email_verified: z.boolean().optional() });

export async function fetchOAuthProfile(
  name: OAuthProviderName,
  p: OAuthProviderConfig,
  grant: OAuthGrant,
  now: number,
): Promise<OAuthProfile | null> {
  const { accessToken } = grant;
  if (name === "google") {
    if (grant.idToken) {
      const id = await readGoogleIdToken(grant.idToken, p.clientId, now);
      if (id.email) return { email: id.email, emailVerified: id.emailVerified };
    }
    const u = googleUser.safeParse(await getJson(p.userinfoUrl, accessToken));
    return u.success
      ? { email: u.data.email, emailVerified: u.data.email_verified === true }
      : null;
  }
  const emails = githubEmails.safeParse(await getJson(`${p.userinfoUrl}/emails`, accessToken));
  if (!emails.success) return null;
  const primary = emails.data.find((e) => e.primary) ?? emails.data[0];
  return primary ? { email: primary.email, emailVerified: primary.verified } : null;
}
