/**
 * OAuth state in Deno KV, as @deno/kv-oauth keeps it: a random state names an entry
 * holding the PKCE verifier and where to go afterwards. The entry expires (expireIn, and
 * an explicit check because local KV expires lazily) and is used once: reading it is an
 * atomic check-and-delete, so a replayed callback finds nothing.
 */
import { loadArctic } from "./arctic.ts";
import { kvKeys } from "../../kv/keys.ts";
import { kvCommit, kvRetry } from "../../kv/retry.ts";
import type { OAuthProviderName } from "../../config.ts";

export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export type OAuthState = {
  provider: OAuthProviderName;
  verifier: string;
  next: string;
  expiresAt: number;
};

export async function saveOAuthState(
  kv: Deno.Kv,
  provider: OAuthProviderName,
  next: string,
  now: number,
): Promise<{ state: string; verifier: string }> {
  const { generateCodeVerifier, generateState } = await loadArctic();
  const state = generateState();
  const verifier = generateCodeVerifier();
  const entry: OAuthState = { provider, verifier, next, expiresAt: now + OAUTH_STATE_TTL_MS };
  await kvCommit(() =>
    kv.atomic().set(kvKeys.oauthState(state), entry, { expireIn: OAUTH_STATE_TTL_MS })
  );
  return { state, verifier };
}

/** The live state for this provider, deleted as it is read; null if unknown, used or expired. */
export async function takeOAuthState(
  kv: Deno.Kv,
  provider: OAuthProviderName,
  state: string,
  now: number,
): Promise<OAuthState | null> {
  if (!state || state.length > 200) return null;
  const key = kvKeys.oauthState(state);
  const got = await kvRetry(() => kv.get<OAuthState>(key));
  if (!got.value) return null;
  // Only the first of two racing callbacks wins the check; the other sees a changed versionstamp.
  const res = await kvCommit(() => kv.atomic().check(got).delete(key));
  if (!res.ok) return null;
  if (got.value.expiresAt <= now || got.value.provider !== provider) return null;
  return got.value;
}
