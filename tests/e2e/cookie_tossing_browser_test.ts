/**
 * Cookie tossing in Chromium: the dashboard on https://app.cachely.test, a
 * tenant-controlled page on a sibling host of the same site. The page sets a bare
 * `cachely_session` for the whole site (the attacker's own session, a more specific path)
 * and tries a `__Host-` one with a Domain. The victim must stay themselves: the dashboard
 * reads only `__Host-cachely_session`, which a sibling cannot set or overwrite.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { BACKENDS, createTestApp } from "../harness.ts";
import { buildIslands, CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";

const PASSWORD = "correct horse battery";
const tls = (f: string) => Deno.readTextFileSync(new URL(`../fixtures/tls/${f}`, import.meta.url));

Deno.test({
  name: "cookie tossing in Chromium: a sibling host's cookies never replace the dashboard session",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    await buildIslands();
    let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
    const cert = tls("localhost.pem");
    const key = tls("localhost.key");
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      (req, info) => handler(req, info),
    );
    const origin = `https://app.cachely.test:${server.addr.port}`;
    const app = await createTestApp(BACKENDS[0], {
      env: { PUBLIC_URL: origin, PROXY_DOMAIN: `localhost:${server.addr.port}` },
    });
    // The tenant page: same site (cachely.test), another host, script of the tenant's choosing.
    let attackerToken = "";
    const tenant = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      () =>
        new Response(
          `<!doctype html><script>
            document.cookie = "cachely_session=${attackerToken}; domain=cachely.test; path=/account; secure";
            document.cookie = "cachely_session=${attackerToken}; domain=cachely.test; path=/; secure";
            document.cookie = "__Host-cachely_session=${attackerToken}; domain=cachely.test; path=/; secure";
          </script><p>tenant page</p>`,
          { headers: { "content-type": "text/html" } },
        ),
    );
    handler = (req, info) => app.handler(req, info);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP *.cachely.test 127.0.0.1"],
    });
    try {
      const signUp = async (email: string) => {
        const res = await app.handler(
          new Request(`${origin}/api/auth/signup`, {
            method: "POST",
            headers: { "content-type": "application/json", origin },
            body: JSON.stringify({ email, password: PASSWORD }),
          }),
          {
            remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 1 },
            completed: Promise.resolve(),
          },
        );
        assertEquals(res.status, 201);
        await res.body?.cancel();
        const cookie = res.headers.getSetCookie()[0] ?? "";
        return cookie;
      };
      const attackerCookie = await signUp("mallory@example.com");
      attackerToken = attackerCookie.split(";")[0].split("=")[1];
      await signUp("victim@example.com");

      const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await ctx.newPage();
      await page.goto(`${origin}/login?next=%2Faccount%2Fprofile`);
      await page.fill('input[name="email"]', "victim@example.com");
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForURL(`${origin}/account/profile`);
      const session = (await ctx.cookies(origin)).find((c) => c.name.endsWith("cachely_session"));
      assertEquals(session?.name, "__Host-cachely_session");
      assertEquals([session?.secure, session?.path, session?.domain], [
        true,
        "/",
        "app.cachely.test",
      ]);

      await page.goto(`https://t.cachely.test:${tenant.addr.port}/`);
      await page.waitForSelector("p");
      await page.goto(`${origin}/account/profile`);
      const main = await page.textContent("main") ?? "";
      assertStringIncludes(main, "victim@example.com");
      assertEquals(main.includes("mallory@example.com"), false, "logged in as the attacker");
      // Ours: the session and the log-in's known-device cookie; the sibling's tries are refused.
      const hostCookies = (await ctx.cookies(origin)).filter((c) => c.name.startsWith("__Host-"));
      assertEquals(
        hostCookies.map((c) => c.name).sort(),
        ["__Host-cachely_device", "__Host-cachely_session"],
        "the sibling could not set a __Host- cookie",
      );
      const mine = hostCookies.find((c) => c.name === "__Host-cachely_session")!;
      assert(mine.value !== attackerToken, "the session is still the victim's");
      await ctx.close();
    } finally {
      await browser.close();
      await app.close();
      await server.shutdown();
      await tenant.shutdown();
    }
  },
});
