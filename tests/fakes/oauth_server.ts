/**
 * A loopback OAuth 2.0 authorization server standing in for GitHub and Google:
 * /authorize approves at once or after a consent page (or answers `error=` when told to deny) and redirects back
 * with a one-time code; /token checks the client credentials, redirect URI and PKCE
 * verifier and, for the `openid` scope (Google), adds an ID token; /user/emails (GitHub) and
 * /userinfo (Google) answer the current identity.
 */
import { toBase64Url } from "../../lib/crypto/mod.ts";
import { serveOnLoopback } from "../harness.ts";

export type FakeIdentity = { email: string; verified: boolean };
type Grant = { challenge: string; redirectUri: string; scope: string; identity: FakeIdentity };

/** A JWT as Google's token endpoint sends it (the app reads it unsigned: id_token.ts). */
function idTokenFor(
  clientId: string,
  identity: FakeIdentity,
  overrides: Record<string, unknown>,
): string {
  const part = (o: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(o)));
  const now = Math.floor(Date.now() / 1000);
  return [
    part({ alg: "RS256", kid: "fake" }),
    part({
      iss: "https://accounts.google.com",
      aud: clientId,
      sub: "1",
      iat: now,
      exp: now + 3600,
      email: identity.email,
      email_verified: identity.verified,
      ...overrides,
    }),
    "c2lnbmF0dXJl",
  ].join(".");
}

export function startFakeOAuth(clientId: string, clientSecret: string) {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, FakeIdentity>();
  const state = {
    identity: { email: "ada@example.com", verified: true } as FakeIdentity,
    deny: null as string | null,
    /** Show a consent page with an "Authorize" link instead of redirecting at once. */
    consent: false,
    /** Send an ID token for the `openid` scope (Google); false: only userinfo says who. */
    idToken: true,
    /** Claims to change in the ID token (a wrong `aud`, an old `exp`). */
    idTokenClaims: {} as Record<string, unknown>,
    tokenRequests: 0,
    userinfoRequests: 0,
    /** The code_challenge_method of the last authorize request. */
    challengeMethod: "",
  };
  const server = serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/authorize") return authorize(url);
    if (url.pathname === "/token" && req.method === "POST") return await token(req);
    const identity = tokens.get((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
    if (!identity) return Response.json({ message: "Bad credentials" }, { status: 401 });
    state.userinfoRequests++;
    if (url.pathname === "/user/emails") {
      return Response.json([{ email: identity.email, primary: true, verified: identity.verified }]);
    }
    if (url.pathname === "/userinfo") {
      return Response.json({ sub: "1", email: identity.email, email_verified: identity.verified });
    }
    return new Response("not found", { status: 404 });
  });

  function authorize(url: URL): Response {
    const q = (k: string) => url.searchParams.get(k) ?? "";
    state.challengeMethod = q("code_challenge_method");
    if (q("client_id") !== clientId || q("code_challenge_method") !== "S256") {
      return new Response("bad authorize request", { status: 400 });
    }
    const back = new URL(q("redirect_uri"));
    back.searchParams.set("state", q("state"));
    if (state.deny) {
      back.searchParams.set("error", state.deny);
      back.searchParams.set("error_description", "The user has denied your application access.");
    } else {
      const code = crypto.randomUUID();
      codes.set(code, {
        challenge: q("code_challenge"),
        redirectUri: q("redirect_uri"),
        scope: q("scope"),
        identity: { ...state.identity },
      });
      back.searchParams.set("code", code);
    }
    if (!state.consent) return Response.redirect(back.toString(), 302);
    const href = back.toString().replaceAll("&", "&amp;").replaceAll('"', "&quot;");
    return new Response(`<!doctype html><a id="authorize" href="${href}">Authorize</a>`, {
      headers: { "content-type": "text/html" },
    });
  }

  async function token(req: Request): Promise<Response> {
    state.tokenRequests++;
    const form = new URLSearchParams(await req.text());
    const basic = `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
    const fail = (error: string) => Response.json({ error }, { status: 400 });
    if (req.headers.get("authorization") !== basic) return fail("invalid_client");
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    if (!grant || grant.redirectUri !== form.get("redirect_uri")) return fail("invalid_grant");
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(form.get("code_verifier") ?? ""),
    );
    if (toBase64Url(new Uint8Array(digest)) !== grant.challenge) return fail("invalid_grant");
    const accessToken = crypto.randomUUID();
    tokens.set(accessToken, grant.identity);
    const openid = state.idToken && grant.scope.split(" ").includes("openid");
    return Response.json({
      access_token: accessToken,
      token_type: "bearer",
      scope: grant.scope,
      ...(openid ? { id_token: idTokenFor(clientId, grant.identity, state.idTokenClaims) } : {}),
    });
  }

  return {
    url: server.url,
    state,
    /** OAUTH_<P>_* variables pointing the app at this server. */
    env(p: "GITHUB" | "GOOGLE"): Record<string, string> {
      return {
        [`OAUTH_${p}_CLIENT_ID`]: clientId,
        [`OAUTH_${p}_CLIENT_SECRET`]: clientSecret,
        [`OAUTH_${p}_AUTHORIZE_URL`]: `${server.url}/authorize`,
        [`OAUTH_${p}_TOKEN_URL`]: `${server.url}/token`,
        [`OAUTH_${p}_USERINFO_URL`]: `${server.url}/${p === "GITHUB" ? "user" : "userinfo"}`,
      };
    },
    close: () => server.close(),
  };
}
