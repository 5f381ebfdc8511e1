/**
 * The dashboard in a real browser (Debian's Chromium via playwright-core): sign up
 * through the form, create a tenant through the form, land on its page, and refresh
 * its API cache with the island button; the change is in the database; a webhook's scope
 * follows the provider picked.
 */
import { chromium } from "playwright-core";
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { BACKENDS, createTestApp, serveOnLoopback } from "../harness.ts";
import { buildIslands, CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";
import { findTenantBySlug } from "../../lib/tenants/service.ts";

const backend = BACKENDS[BACKENDS.length - 1];

Deno.test({
  name: `dashboard in Chromium: sign up, create a tenant, refresh its cache [${backend}]`,
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
    handler = (req, info) => app.handler(req, info);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${origin}/signup`);
      await page.fill('input[name="email"]', "owner@example.com");
      await page.fill('input[name="password"]', "correct horse battery");
      await page.click('button[type="submit"]');
      await page.waitForURL(`${origin}/dashboard`);
      assertStringIncludes(await page.textContent("main") ?? "", "No tenants yet");

      // the CMS first: the form then shows only its fields
      await page.selectOption('select[name="cms"]', "generic");
      await page.waitForURL(/cms=generic/);
      await page.fill('input[name="slug"]', "acme");
      await page.fill('input[name="originUrl"]', "https://assets.example.com");
      await page.fill('input[name="token"]', "CANARY-browser");
      await page.click('button:has-text("Create tenant")');
      await page.waitForURL(`${origin}/dashboard/acme`);
      const text = await page.textContent("main") ?? "";
      assertStringIncludes(text, `http://acme.localhost:${server.port}`);
      assertStringIncludes(text, "token stored");

      page.on("dialog", (d) => d.accept());
      await page.goto(`${origin}/dashboard/acme/cache`);
      await page.click('button:has-text("Purge API")');
      await page.waitForSelector("#announce .notice.ok");
      const tenant = await findTenantBySlug(app.services, "acme");
      assertEquals(tenant?.apiCacheVersion, 2);
      assertStringIncludes(await page.textContent("#content") ?? "", "API cache version");
      await page.goto(`${origin}/dashboard/acme`);
      assertStringIncludes(await page.textContent("main") ?? "", "api 2, assets 1, html 1");

      // A webhook's scope follows the provider picked (a generic tenant starts at "all").
      await page.goto(`${origin}/dashboard/acme/webhooks`);
      const scope = () => page.inputValue('select[name="scope"]');
      assertEquals(await scope(), "all");
      await page.selectOption('select[name="provider"]', "contentful");
      assertEquals(await scope(), "entities");
      await page.selectOption('select[name="provider"]', "generic");
      assertEquals(await scope(), "all");
      await page.goto(`${origin}/dashboard/acme`);

      // The implementation check answers in place with its headline.
      await page.click('button:has-text("Probe the website surface")');
      await page.waitForSelector('#announce .notice.ok:has-text("site proxy is off")');
      await page.screenshot({ path: new URL("../../tmp/dashboard.png", import.meta.url).pathname })
        .catch(() => {});
      assertEquals(errors, [], "no script errors on the page");
    } finally {
      await browser.close();
      await app.close();
      await server.close();
    }
  },
});
