/**
 * OAuth sign-in (authorization code + PKCE through arctic's OAuth2Client): `startOAuth`
 * saves a one-time state and answers the provider's authorize URL; `finishOAuth` takes the
 * state back, exchanges the code, reads the verified email and signs that account in,
 * creating it when new. The state is also kept in an HttpOnly cookie so a callback URL
 * made in another browser (login CSRF) is refused.
 */
import type { Context } from "hono";
import { clearAppCookie, readAppCookie, setAppCookie } from "../../http/cookies.ts";
import type { OAuth2Client } from "arctic";
import { loadArctic } from "./arctic.ts";
import type { AppEnv } from "../../http/env.ts";
import type { OAuthProviderConfig, OAuthProviderName } from "../../config.ts";
import { ApiError, notFound } from "../../errors.ts";
import { safeNext } from "../../http/next.ts";
import { timingSafeEqual } from "../../crypto/mod.ts";
import { OAUTH_STATE_TTL_MS, saveOAuthState, takeOAuthState } from "./state.ts";
import { fetchOAuthProfile, OAUTH_LABELS, OAUTH_SCOPES, type OAuthGrant } from "./profile.ts";
import { limitLogin } from "../login.ts";
import { signInOAuthUser } from "./link.ts";

export const OAUTH_STATE_COOKIE = "cachely_oauth_state";

async function provider(c: Context<AppEnv>, name: string) {
  const config = c.get("services").config;
  const p = (name === "github" || name === "google") ? config.oauth[name] : undefined;
  if (!p) throw notFound("Sign-in provider");
  const n = name as OAuthProviderName;
  const redirect = `${config.publicUrl}/auth/oauth/${n}/callback`;
  const { OAuth2Client } = await loadArctic();
  return { name: n, p, client: new OAuth2Client(p.clientId, p.clientSecret, redirect) };
}

/** The provider's authorize URL for a new one-time state; the state cookie set beside it. */
export async function startOAuth(c: Context<AppEnv>, name: string): Promise<string> {
  const s = c.get("services");
  const { name: n, p, client } = await provider(c, name);
  // Each start writes a KV entry: it counts against the same per-IP window as log-ins.
  await limitLogin(s, c.get("clientIp"));
  const next = safeNext(c.req.query("next"), s.config.publicUrl);
  const { state, verifier } = await saveOAuthState(s.kv, n, next, s.clock.now());
  setAppCookie(c, OAUTH_STATE_COOKIE, state, OAUTH_STATE_TTL_MS / 1000);
  const scopes = OAUTH_SCOPES[n];
  const { CodeChallengeMethod } = await loadArctic();
  return client.createAuthorizationURLWithPKCE(
    p.authorizeUrl,
    state,
    CodeChallengeMethod.S256,
    verifier,
    scopes,
  ).toString();
}

const badState = () =>
  new ApiError(400, "bad_request", "This sign-in link is invalid, expired or already used");

/** Signs the user in from the callback; answers where to go next. */
export async function finishOAuth(c: Context<AppEnv>, name: string): Promise<string> {
  const s = c.get("services");
  const { name: n, p, client } = await provider(c, name);
  const q = (k: string) => c.req.query(k) ?? "";
  const cookie = readAppCookie(c, OAUTH_STATE_COOKIE) ?? "";
  clearAppCookie(c, OAUTH_STATE_COOKIE);
  const entry = await takeOAuthState(s.kv, n, q("state"), s.clock.now());
  if (!entry || !timingSafeEqual(cookie, q("state"))) throw badState();
  if (q("error")) throw providerError(n, q("error"), q("error_description"));
  if (!q("code") || q("code").length > 2000) throw badState();
  const grant = await exchange(n, p, client, q("code"), entry.verifier);
  const profile = await fetchOAuthProfile(n, p, grant, s.clock.now()).catch((e) => {
    s.log.warn("oauth profile failed", { provider: n, error: String(e) });
    return null;
  });
  if (!profile) {
    throw new ApiError(502, "bad_gateway", `${OAUTH_LABELS[n]} did not say who you are`);
  }
  await signInOAuthUser(c, n, profile);
  return safeNext(entry.next, s.config.publicUrl);
}

async function exchange(
  n: OAuthProviderName,
  p: OAuthProviderConfig,
  client: OAuth2Client,
  code: string,
  verifier: string,
): Promise<OAuthGrant> {
  try {
    const tokens = await client.validateAuthorizationCode(p.tokenUrl, code, verifier);
    const idToken = (tokens.data as { id_token?: unknown }).id_token;
    return {
      accessToken: tokens.accessToken(),
      idToken: typeof idToken === "string" ? idToken : undefined,
    };
  } catch (e) {
    const { OAuth2RequestError } = await loadArctic();
    if (e instanceof OAuth2RequestError) throw providerError(n, e.code, e.description ?? "");
    throw new ApiError(502, "bad_gateway", `${OAUTH_LABELS[n]} could not be reached`);
  }
}

/** The provider said no (the user cancelled, or the code was refused): a readable 400 page. */
function providerError(n: OAuthProviderName, code: string, description: string) {
  const why = (description || code).slice(0, 200);
  return new ApiError(400, "oauth_error", `${OAUTH_LABELS[n]} sign-in did not complete: ${why}`);
}
