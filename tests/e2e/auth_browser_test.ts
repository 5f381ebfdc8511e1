/**
 * Log-in in Chromium: a form submitted before (or without) JavaScript posts, so the
 * password never appears in a URL; a session that expires mid-action leads to the log-in
 * page and back to the same page afterwards.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { BACKENDS, createTestApp, serveOnLoopback } from "../harness.ts";
import { buildIslands, CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";
import { deleteUserSessions } from "../../lib/auth/sessions.ts";

const backend = BACKENDS[0];
const PASSWORD = "correct horse battery";

Deno.test({
  name: "log-in in Chromium: no password in any URL without JavaScript; expiry comes back",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    await buildIslands();
    let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
    const server = serveOnLoopback((req, info) => handler(req, info));
    const origin = `http://localhost:${server.port}`;
    const app = await createTestApp(backend, {
      env: { PROXY_DOMAIN: `localhost:${server.port}`, PUBLIC_URL: origin },
    });
    const seen: string[] = [];
    handler = (req, info) => {
      seen.push(req.method + " " + req.url);
      return app.handler(req, info);
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const signup = await fetch(`${origin}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: "kim@example.com", password: PASSWORD }),
      });
      assertEquals(signup.status, 201);
      await signup.body?.cancel();

      // 1. Without JavaScript (as before the bundle loads): the browser posts the form itself.
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      const page = await noJs.newPage();
      await page.goto(`${origin}/login?next=%2Faccount%2Fprofile`);
      await page.fill('input[name="email"]', "kim@example.com");
      await page.fill('input[name="password"]', "wrong password here");
      await page.click('button[type="submit"]');
      await page.waitForLoadState();
      assertStringIncludes(
        await page.textContent('[role="alert"]') ?? "",
        "Invalid email or password",
      );
      assertEquals(await page.inputValue('input[name="email"]'), "kim@example.com");
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForURL(`${origin}/account/profile`);
      assertStringIncludes(await page.textContent("main") ?? "", "kim@example.com");
      const leaked = seen.filter((u) =>
        u.includes("password=") || u.includes(encodeURIComponent(PASSWORD))
      );
      assertEquals(leaked, [], "no request URL carries the password");
      assert(seen.some((u) => u.startsWith("POST ") && u.includes("/login")), "the form posted");
      await noJs.close();

      // 2. With JavaScript: the session ends while the page is open; the next action goes
      // to log-in, and logging in brings the visitor back to the same page.
      const ctx = await browser.newContext();
      const live = await ctx.newPage();
      const errors: string[] = [];
      live.on("pageerror", (e) => errors.push(e.message));
      await live.goto(`${origin}/login?next=%2Faccount%2Fprofile`);
      await live.fill('input[name="email"]', "kim@example.com");
      await live.fill('input[name="password"]', PASSWORD);
      await live.click('button[type="submit"]');
      await live.waitForURL(`${origin}/account/profile`);
      const user = (await app.services.dbHandle.query<{ id: string }>(
        "SELECT id FROM users WHERE email = 'kim@example.com'",
      ))[0];
      await deleteUserSessions(app.services.kv, user.id);
      await live.fill('input[name="name:null"]', "Kim");
      await live.click('button:has-text("Save name")');
      await live.waitForURL(/\/login\?next=%2Faccount%2Fprofile$/);
      await live.fill('input[name="email"]', "kim@example.com");
      await live.fill('input[name="password"]', PASSWORD);
      await live.click('button[type="submit"]');
      await live.waitForURL(`${origin}/account/profile`);
      assertEquals(errors, [], "no script errors");
      await ctx.close();
    } finally {
      await browser.close();
      await app.close();
      await server.close();
    }
  },
});
