/**
 * OAuth sign-in in Chromium against the loopback fake authorization server: "Continue with
 * GitHub" on /login ends on /dashboard signed in; a second run links the same verified email
 * to an existing password account; a replayed or expired callback is a 400 page; a provider
 * error is a readable page.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { startFakeOAuth } from "../fakes/oauth_server.ts";
import { browserApp, CHROMIUM, getAsPage, hasChromium, inCi } from "./browser.ts";

Deno.test({
  name: "oauth in Chromium: sign in, link a password account, refuse replays, show provider errors",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    const fake = startFakeOAuth("cachely-e2e", "e2e-client-secret");
    const ba = await browserApp(fake.env("GITHUB"));
    const { origin, app, browser, problems, watch } = ba;
    const me = async (page: Page) => {
      const res = await getAsPage(page, `${origin}/api/auth/me`);
      return res.ok ? (await res.json()).user : (await res.body?.cancel(), null);
    };
    /** Clicks the button on /login and returns the callback URL the fake sent the browser to. */
    const clickGitHub = async (page: Page) => {
      let callback = "";
      page.on("request", (r) => {
        if (r.url().includes("/auth/oauth/github/callback")) callback = r.url();
      });
      await page.goto(`${origin}/login`);
      await page.click("text=Continue with GitHub");
      await page.waitForLoadState();
      return callback;
    };
    try {
      // 1. A new user: GitHub → fake authorizes → /dashboard, signed in.
      const first = await browser.newContext();
      const page = await first.newPage();
      watch(page);
      const callback = await clickGitHub(page);
      assertEquals(page.url(), `${origin}/dashboard`);
      assertStringIncludes(await page.textContent("body") ?? "", "ada@example.com");
      assertEquals((await me(page))?.email, "ada@example.com");

      // Replaying the same callback (state used) in the same browser: a 400 page.
      const replay = await page.goto(callback);
      assertEquals(replay?.status(), 400);
      assertStringIncludes(await page.textContent("main") ?? "", "already used");
      await first.close();

      // 2. A password account, then GitHub with the same verified email: the same account.
      const signup = await fetch(`${origin}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: "grace@example.com", password: "correct horse battery" }),
      });
      assertEquals(signup.status, 201);
      const owner = (await signup.json()).user;
      fake.state.identity = { email: "grace@example.com", verified: true };
      const second = await browser.newContext();
      const linked = await second.newPage();
      watch(linked);
      await clickGitHub(linked);
      assertEquals(linked.url(), `${origin}/dashboard`);
      assertEquals((await me(linked))?.id, owner.id);
      await second.close();

      // 3. Expired state: the visitor took longer than 10 minutes at the provider.
      const third = await browser.newContext();
      const slow = await third.newPage();
      watch(slow);
      fake.state.consent = true;
      await slow.goto(`${origin}/login`);
      await slow.click("text=Continue with GitHub");
      await slow.waitForSelector("#authorize");
      app.clock.advance(11 * 60_000);
      const expired = slow.waitForResponse((r) => r.url().includes("/callback"));
      await slow.click("#authorize");
      assertEquals((await expired).status(), 400);
      await slow.waitForLoadState();
      assertStringIncludes(await slow.textContent("main") ?? "", "expired");
      assertEquals(await me(slow), null);

      // 4. The user refuses at the provider: a readable page, not signed in.
      fake.state.consent = false;
      fake.state.deny = "access_denied";
      const denied = slow.waitForResponse((r) => r.url().includes("/callback"));
      await slow.goto(`${origin}/login`);
      await slow.click("text=Continue with GitHub");
      assertEquals((await denied).status(), 400);
      await slow.waitForLoadState();
      assertStringIncludes(
        await slow.textContent('[role="alert"]') ?? "",
        "GitHub sign-in did not complete: The user has denied your application access.",
      );
      assertEquals(await me(slow), null);
      await third.close();
      assertEquals(problems, [], "no script or CSP errors");
      assert(fake.state.tokenRequests >= 2);
    } finally {
      await ba.close();
      await fake.close();
    }
  },
});

Deno.test({
  name:
    "Google in Chromium: consent, PKCE, ID token or userinfo; unverified refused; claims a squat",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    const fake = startFakeOAuth("cachely-google", "google-client-secret");
    const ba = await browserApp(fake.env("GOOGLE"));
    const { origin, browser, problems } = ba;
    /** A fresh browser: /login → "Continue with Google" → the fake's consent page → Authorize. */
    const viaGoogle = async () => {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      ba.watch(page);
      let authorizeUrl = "";
      page.on("request", (r) => {
        if (r.url().startsWith(`${fake.url}/authorize`)) authorizeUrl = r.url();
      });
      await page.goto(`${origin}/login`);
      await page.click("text=Continue with Google");
      await page.waitForSelector("#authorize");
      const answered = page.waitForResponse((r) => r.url().includes("/auth/oauth/google/callback"));
      await page.click("#authorize");
      const callback = await answered;
      await page.waitForLoadState();
      return { ctx, page, status: callback.status(), authorize: new URL(authorizeUrl) };
    };
    const me = async (page: Page) => {
      const res = await getAsPage(page, `${origin}/api/auth/me`);
      return res.ok ? (await res.json()).user : (await res.body?.cancel(), null);
    };
    try {
      fake.state.consent = true;

      // 1. A new user; the ID token says who (no userinfo request); PKCE S256 on authorize.
      const first = await viaGoogle();
      assertEquals(first.status, 302);
      assertEquals(first.page.url(), `${origin}/dashboard`);
      const q = first.authorize.searchParams;
      assertEquals(q.get("code_challenge_method"), "S256");
      assertEquals(q.get("code_challenge")?.length, 43, "a SHA-256 challenge, base64url");
      assertStringIncludes(q.get("scope") ?? "", "openid");
      const ada = await me(first.page);
      assertEquals([ada?.email, ada?.emailVerified], ["ada@example.com", true]);
      assertEquals([fake.state.tokenRequests, fake.state.userinfoRequests], [1, 0]);
      await first.ctx.close();

      // 2. No ID token: the userinfo endpoint's email_verified decides.
      fake.state.idToken = false;
      fake.state.identity = { email: "lin@example.com", verified: true };
      const second = await viaGoogle();
      assertEquals(second.page.url(), `${origin}/dashboard`);
      assertEquals((await me(second.page))?.email, "lin@example.com");
      assertEquals(fake.state.userinfoRequests, 1);
      await second.ctx.close();
      fake.state.idToken = true;

      // 3. A password account nobody verified (a squatter's), and a session on it.
      const signup = await fetch(`${origin}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: "grace@example.com", password: "correct horse battery" }),
      });
      assertEquals(signup.status, 201);
      const squatter = (await signup.json()).user;
      const squatCookie = signup.headers.getSetCookie()[0].split(";")[0];
      const squatMe = () =>
        fetch(`${origin}/api/auth/me`, { headers: { cookie: squatCookie } }).then((r) => {
          r.body?.cancel();
          return r.status;
        });
      assertEquals(await squatMe(), 200);

      // Google with that address unverified: refused, nothing linked or changed.
      fake.state.identity = { email: "grace@example.com", verified: false };
      const refused = await viaGoogle();
      assertEquals(refused.status, 403);
      assertStringIncludes(await refused.page.textContent("main") ?? "", "not verified");
      assertEquals(await me(refused.page), null);
      assertEquals(await squatMe(), 200);
      await refused.ctx.close();

      // Google with the address verified: the owner gets the account, the squatter is out.
      fake.state.identity = { email: "grace@example.com", verified: true };
      const owner = await viaGoogle();
      assertEquals(owner.page.url(), `${origin}/dashboard`);
      const grace = await me(owner.page);
      assertEquals([grace?.id, grace?.emailVerified], [squatter.id, true]);
      assertEquals(await owner.page.locator("[data-verify-email]").count(), 0);
      assertStringIncludes(
        await owner.page.textContent("#announce") ?? "",
        "Google confirmed grace@example.com: this account is yours.",
      );
      assertEquals(await squatMe(), 401);
      await owner.ctx.close();
      assertEquals(problems, [], "no script or CSP errors");
    } finally {
      await ba.close();
      await fake.close();
    }
  },
});
