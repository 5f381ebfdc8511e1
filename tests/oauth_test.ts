/**
 * OAuth sign-in against the loopback fake authorization server (tests/fakes/oauth_server.ts):
 * new accounts, linking by verified email only, one-time expiring state bound to the browser,
 * readable provider errors, and buttons for configured providers only.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { BACKENDS, Client, createTestApp, signUp, type TestApp } from "./harness.ts";
import { startFakeOAuth } from "./fakes/oauth_server.ts";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { LOGIN_LIMITS } from "../lib/auth/login.ts";
import { saveOAuthState, takeOAuthState } from "../lib/auth/oauth/state.ts";

type Fake = ReturnType<typeof startFakeOAuth>;

async function withOAuth(fn: (app: TestApp, fake: Fake) => Promise<void>) {
  const fake = startFakeOAuth("cachely-test", "s3cret-client");
  const app = await createTestApp(BACKENDS[0], { env: { ...fake.env("GITHUB") } });
  try {
    await fn(app, fake);
  } finally {
    await app.close();
    await fake.close();
  }
}

/** Start → fake authorize → the callback URL the browser would be sent to. */
async function authorize(client: Client, provider = "github", next = "/account/profile") {
  const start = await client.get(`/auth/oauth/${provider}?next=${encodeURIComponent(next)}`);
  assertEquals(start.status, 302);
  const res = await fetch(start.headers.get("location")!, { redirect: "manual" });
  await res.body?.cancel();
  const back = new URL(res.headers.get("location")!);
  return back.pathname + back.search;
}

async function signIn(client: Client, provider = "github", next = "/account/profile") {
  return await client.get(await authorize(client, provider, next));
}

function oauthTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name, fn });
}

oauthTest(
  "oauth: a new verified GitHub user lands on next, signed in",
  () =>
    withOAuth(async (app, fake) => {
      const client = new Client(app);
      const done = await signIn(client);
      assertEquals(done.status, 302);
      assertEquals(done.headers.get("location"), "/account/profile");
      const me = await client.get("/api/auth/me");
      assertEquals(me.status, 200);
      assertEquals(me.body.user.email, "ada@example.com");
      assertEquals(fake.state.tokenRequests, 1);
    }),
);

oauthTest(
  "oauth: a verified email links to the existing password account",
  () =>
    withOAuth(async (app, fake) => {
      const owner = await signUp(app, "grace@example.com");
      fake.state.identity = { email: "Grace@Example.com", verified: true };
      const client = new Client(app);
      assertEquals((await signIn(client)).status, 302);
      const me = await client.get("/api/auth/me");
      assertEquals(me.body.user.id, owner.userId);
      const rows = await app.services.dbHandle.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM users WHERE email = 'grace@example.com'",
      );
      assertEquals(rows[0].n, 1);
    }),
);

oauthTest(
  "oauth: an unverified email never links, nor creates an account",
  () =>
    withOAuth(async (app, fake) => {
      await signUp(app, "victim@example.com");
      for (const email of ["victim@example.com", "fresh@example.com"]) {
        fake.state.identity = { email, verified: false };
        const client = new Client(app);
        const res = await signIn(client);
        assertEquals(res.status, 403);
        assertStringIncludes(res.text, "not verified");
        assertEquals((await client.get("/api/auth/me")).status, 401);
      }
      const rows = await app.services.dbHandle.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM users WHERE email = 'fresh@example.com'",
      );
      assertEquals(rows[0].n, 0);
    }),
);

oauthTest(
  "oauth: replayed, unknown, expired and foreign-browser state answer a 400 page",
  () =>
    withOAuth(async (app) => {
      const client = new Client(app);
      const callback = await authorize(client);
      const cookies = new Map(client.cookies);
      assertEquals((await client.get(callback)).status, 302);

      // Replayed: the same callback again, with the state cookie put back.
      const replay = new Client(app);
      replay.cookies = new Map(cookies);
      const again = await replay.get(callback);
      assertEquals(again.status, 400);
      assertStringIncludes(again.text, "invalid, expired or already used");

      // Unknown state.
      const unknown = callback.replace(/state=[^&]+/, "state=forged");
      assertEquals((await replay.get(unknown)).status, 400);

      // Expired: the KV entry is still there (local expiry is lazy), the check refuses it.
      const slow = new Client(app);
      const late = await authorize(slow);
      app.clock.advance(11 * 60_000);
      assertEquals((await slow.get(late)).status, 400);
      assertEquals((await slow.get("/api/auth/me")).status, 401);

      // A callback URL opened in another browser (login CSRF): no state cookie.
      const attacker = new Client(app);
      const link = await authorize(attacker);
      const victim = new Client(app);
      assertEquals((await victim.get(link)).status, 400);
      assertEquals((await victim.get("/api/auth/me")).status, 401);
    }),
);

oauthTest(
  "oauth: a provider error is a readable page, not a sign-in",
  () =>
    withOAuth(async (app, fake) => {
      fake.state.deny = "access_denied";
      const client = new Client(app);
      const res = await signIn(client);
      assertEquals(res.status, 400);
      assertStringIncludes(res.text, "GitHub sign-in did not complete");
      assertStringIncludes(res.text, "denied your application access");
      assertEquals(fake.state.tokenRequests, 0);
      assertEquals((await client.get("/api/auth/me")).status, 401);

      // The token endpoint refusing the code (wrong PKCE verifier here) reads the same way.
      fake.state.deny = null;
      const other = new Client(app);
      const callback = await authorize(other);
      const entries = [];
      for await (const e of app.services.kv.list({ prefix: ["oauth_state"] })) entries.push(e);
      assertEquals(entries.length, 1);
      await app.services.kv.set(entries[0].key, {
        ...(entries[0].value as Record<string, unknown>),
        verifier: "x".repeat(43),
      });
      const refused = await other.get(callback);
      assertEquals(refused.status, 400);
      assertStringIncludes(refused.text, "invalid_grant");
    }),
);

oauthTest("oauth: Google through its userinfo; next stays on our origin", async () => {
  const fake = startFakeOAuth("g-client", "g-secret");
  const app = await createTestApp(BACKENDS[0], { env: fake.env("GOOGLE") });
  try {
    const client = new Client(app);
    const done = await signIn(client, "google", "//evil.example/x");
    assertEquals(done.headers.get("location"), "/dashboard");
    assertEquals((await client.get("/api/auth/me")).body.user.email, "ada@example.com");
    // GitHub is not configured here: no button, and its start page is a 404.
    const login = await new Client(app).get("/login");
    assertStringIncludes(login.text, "Continue with Google");
    assert(!login.text.includes("Continue with GitHub"));
    assertEquals((await new Client(app).get("/auth/oauth/github")).status, 404);
  } finally {
    await app.close();
    await fake.close();
  }
});

oauthTest("oauth: Google's ID token says who signed in; userinfo only without one", async () => {
  const fake = startFakeOAuth("g-client", "g-secret");
  const app = await createTestApp(BACKENDS[0], { env: fake.env("GOOGLE") });
  try {
    // With the openid scope the fake sends an ID token: no userinfo request.
    fake.state.identity = { email: "id@example.com", verified: true };
    const a = new Client(app);
    assertEquals((await signIn(a, "google")).status, 302);
    assertEquals((await a.get("/api/auth/me")).body.user.email, "id@example.com");
    assertEquals(fake.state.userinfoRequests, 0);
    assertEquals(fake.state.challengeMethod, "S256");

    // An ID token whose email is unverified is refused like an unverified userinfo.
    fake.state.identity = { email: "unverified@example.com", verified: false };
    assertEquals((await signIn(new Client(app), "google")).status, 403);

    // Not ours (another client, another issuer, expired): no sign-in, a 502 page.
    fake.state.identity = { email: "id@example.com", verified: true };
    const past = Math.floor(Date.now() / 1000) - 60;
    for (
      const claims of [{ aud: "other-client" }, { iss: "https://evil.example" }, { exp: past }]
    ) {
      fake.state.idTokenClaims = claims;
      const c = new Client(app);
      assertEquals((await signIn(c, "google")).status, 502, JSON.stringify(claims));
      assertEquals((await c.get("/api/auth/me")).status, 401);
    }
    fake.state.idTokenClaims = {};

    // Without an ID token, the userinfo endpoint answers.
    fake.state.idToken = false;
    const b = new Client(app);
    assertEquals((await signIn(b, "google")).status, 302);
    assertEquals(fake.state.userinfoRequests, 1);
  } finally {
    await app.close();
    await fake.close();
  }
});

oauthTest(
  "oauth: no provider configured, no buttons; half a credential pair stops start-up",
  async () => {
    const app = await createTestApp(BACKENDS[0]);
    try {
      const login = await new Client(app).get("/login");
      assert(!login.text.includes("Continue with"));
    } finally {
      await app.close();
    }
    let err: unknown;
    try {
      loadConfig({ OAUTH_GOOGLE_CLIENT_ID: "id" });
    } catch (e) {
      err = e;
    }
    assert(err instanceof ConfigError);
    assertStringIncludes(err.message, "OAUTH_GOOGLE_CLIENT_SECRET");
    const c = loadConfig({ OAUTH_GITHUB_CLIENT_ID: "a", OAUTH_GITHUB_CLIENT_SECRET: "b" });
    assertEquals(c.oauth.github?.tokenUrl, "https://github.com/login/oauth/access_token");
  },
);

oauthTest("oauth: two callbacks racing with one state: exactly one takes it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    for (let i = 0; i < 20; i++) {
      const { state } = await saveOAuthState(kv, "github", "/dashboard", 0);
      const got = await Promise.all([
        takeOAuthState(kv, "github", state, 1),
        takeOAuthState(kv, "github", state, 1),
      ]);
      assertEquals(got.filter(Boolean).length, 1);
    }
  } finally {
    kv.close();
  }
});

oauthTest(
  "oauth: starts count against the per-IP log-in window (each writes KV state)",
  () =>
    withOAuth(async (app) => {
      const client = new Client(app);
      const statuses = [];
      for (let i = 0; i <= LOGIN_LIMITS.perIp.limit; i++) {
        statuses.push((await client.get("/auth/oauth/github")).status);
      }
      assertEquals(statuses.filter((s) => s === 302).length, LOGIN_LIMITS.perIp.limit);
      assertEquals(statuses.at(-1), 429);
    }),
);
