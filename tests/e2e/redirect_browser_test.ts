/**
 * The redirect after log-in, in Chromium: a generated set of `?next=` values (dot
 * segments, percent-encodings, backslashes, tabs and newlines around a second slash)
 * goes through the log-in form, with and without JavaScript; every log-in lands on our
 * own origin and no request reaches the other host.
 */
import { assertEquals } from "../assert.ts";
import { serveOnLoopback } from "../harness.ts";
import { LOGIN_LIMITS } from "../../lib/auth/login.ts";
import { browserApp, CHROMIUM, hasChromium, inCi } from "./browser.ts";

const PASSWORD = "correct horse battery";

/** `?next=` values that try to leave for `host`: prefix × separator, plus plain forms. */
function generatedNexts(host: string): string[] {
  const prefixes = ["/.", "/%2e", "/..", "/%2e%2e", "/.%2E", "/a/..", "/a/%2e%2e"];
  const separators = ["//", "/\\", "/\t/", "/\n/", "\\/", "/\\\\"];
  const out = ["//" + host, "/\\" + host, "/\t/" + host, "\\\\" + host, "http://" + host];
  for (const p of prefixes) for (const s of separators) out.push(`${p}${s}${host}/`);
  return out;
}

Deno.test({
  name: "redirect after log-in in Chromium: a generated set of next= values stays on our origin",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    const evilHits: string[] = [];
    const evil = serveOnLoopback((req) => {
      evilHits.push(req.url);
      return new Response("evil");
    });
    const ba = await browserApp();
    const { origin, browser } = ba;
    try {
      const signup = await fetch(`${origin}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: "kim@example.com", password: PASSWORD }),
      });
      assertEquals(signup.status, 201);
      await signup.body?.cancel();
      const nexts = generatedNexts(`127.0.0.1:${evil.port}`);
      const landed: string[] = [];
      let attempts = 0;
      for (const javaScriptEnabled of [false, true]) {
        const ctx = await browser.newContext({ javaScriptEnabled });
        const page = await ctx.newPage();
        for (const next of nexts) {
          // The per-IP log-in limit counts every attempt: start a new window now and then.
          if (++attempts % 25 === 0) ba.app.clock.advance(LOGIN_LIMITS.perIp.windowMs);
          await ctx.clearCookies();
          await page.goto(`${origin}/login?next=${encodeURIComponent(next)}`);
          await page.fill('input[name="email"]', "kim@example.com");
          await page.fill('input[name="password"]', PASSWORD);
          await Promise.all([
            page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: 10_000 })
              .catch(() => {}),
            page.click('button[type="submit"]'),
          ]);
          await page.waitForLoadState();
          const at = new URL(page.url());
          if (at.origin !== origin) landed.push(`${JSON.stringify(next)} → ${page.url()}`);
        }
        await ctx.close();
      }
      assertEquals(landed, [], `${landed.length} of ${nexts.length * 2} log-ins left our origin`);
      assertEquals(evilHits, []);
    } finally {
      await ba.close();
      await evil.close();
    }
  },
});
