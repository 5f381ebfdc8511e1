/**
 * The new-tenant form's dead ends, closed, in Chromium: the new-tenant form shows only the chosen CMS's fields
 * (with JavaScript: picking reloads at once; without: pick, "Show its fields", then fill),
 * the verification banner says only what applies (no OAuth here: no takeover warning) and
 * hides for the session, and on a 390 px phone the page heading is on the first screen.
 * Screenshots go to tests/e2e/screenshots/ (git-ignored).
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { browserApp, CHROMIUM, hasChromium, inCi } from "./browser.ts";
import { screenshot } from "./screenshot.ts";

const SHOTS = new URL("./screenshots/", import.meta.url);
const PASSWORD = "correct horse battery";

Deno.test({
  name: "new-tenant form in Chromium: one CMS's fields, with and without JavaScript; banner; phone",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    await Deno.mkdir(SHOTS, { recursive: true });
    const ba = await browserApp({ QUOTAS: "off" });
    const { origin, browser, problems, watch } = ba;
    const signUp = async (page: Page, email: string) => {
      await page.goto(`${origin}/signup?next=%2Fdashboard`);
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForURL(`${origin}/dashboard`);
    };
    const kinds = (page: Page) =>
      page.$$eval(
        "fieldset[data-provider-kind]",
        (fs) => fs.map((f) => f.getAttribute("data-provider-kind")),
      );
    const formHeight = async (page: Page) =>
      Math.round((await page.locator('form[aria-label="New tenant"]').boundingBox())!.height);
    const create = async (page: Page, slug: string, field: string, value: string) => {
      await page.fill('form[aria-label="New tenant"] input[name="slug"]', slug);
      await page.fill(`form[aria-label="New tenant"] input[name="${field}"]`, value);
      await page.click('form[aria-label="New tenant"] button[type="submit"]');
      await page.waitForURL(`${origin}/dashboard/${slug}`);
    };
    try {
      // 1. With JavaScript.
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      watch(page);
      await signUp(page, "ana@example.com");
      assertEquals(await kinds(page), ["contentful"], "one kind's fields, the default");
      assertEquals(await page.isVisible("[data-nojs]"), false, "no extra button with JS");
      // a slug typed before the CMS changes survives the reload (QA: it was lost)
      await page.fill('form[aria-label="New tenant"] input[name="slug"]', "shop-js");
      await page.selectOption('form[aria-label="Pick the CMS"] select', "sanity");
      await page.waitForURL(/cms=sanity/);
      assertEquals(await kinds(page), ["sanity"]);
      assertEquals(
        await page.inputValue('form[aria-label="New tenant"] input[name="slug"]'),
        "shop-js",
      );
      assertEquals(await page.locator('input[name="spaceId"]').count(), 0);
      const jsHeight = await formHeight(page);
      await screenshot(page, {
        path: new URL("new-tenant-js.png", SHOTS).pathname,
        fullPage: true,
      });
      const banner = await page.locator("[data-verify-email]").textContent() ?? "";
      assert(banner.includes("not confirmed"), banner);
      assert(!/GitHub|Google|takes the account over/.test(banner), `no OAuth here: ${banner}`);
      await create(page, "shop-js", "projectId", "p1x2");
      assertEquals(await page.locator("[data-verify-email]").count(), 1);
      await page.click('form[aria-label="Hide the banner"] button');
      await page.waitForURL(`${origin}/dashboard/shop-js`);
      assertEquals(await page.locator("[data-verify-email]").count(), 0, "hidden for the session");
      await page.goto(`${origin}/dashboard`);
      assertEquals(await page.locator("[data-verify-email]").count(), 0);

      // 2. Without JavaScript: pick, "Show its fields", then the fields.
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      const p2 = await noJs.newPage();
      await signUp(p2, "ben@example.com");
      await p2.selectOption('form[aria-label="Pick the CMS"] select', "imgix");
      await p2.click("[data-nojs]");
      await p2.waitForURL(/cms=imgix/);
      assertEquals(await kinds(p2), ["imgix"]);
      const noJsHeight = await formHeight(p2);
      await screenshot(p2, {
        path: new URL("new-tenant-nojs.png", SHOTS).pathname,
        fullPage: true,
      });
      await create(p2, "shop-nojs", "imgixDomain", "acme.imgix.net");

      // 3. A phone: the heading on the first screen (the nav collapses to one row).
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const p3 = await phone.newPage();
      await signUp(p3, "cy@example.com");
      await p3.goto(`${origin}/dashboard`);
      await create(p3, "shop-phone", "spaceId", "abc123xyz");
      const h1 = await p3.locator("main h1").first().boundingBox();
      assert(h1 !== null && h1.y + h1.height <= 844, `heading at ${JSON.stringify(h1)}`);
      await screenshot(p3, { path: new URL("tenant-phone.png", SHOTS).pathname });

      const slugs = ["shop-js", "shop-nojs", "shop-phone"];
      const cms = await Promise.all(
        slugs.map(async (s) =>
          (await ba.app.services.dbHandle.query<{ cms: string }>(
            `SELECT cms FROM tenants WHERE slug = '${s}'`,
          ))[0]?.cms
        ),
      );
      assertEquals(cms, ["sanity", "imgix", "contentful"]);
      console.log(
        `new-tenant form height: ${jsHeight} px (JS, sanity), ${noJsHeight} px (no JS, imgix); ` +
          `phone heading bottom at ${Math.round(h1!.y + h1!.height)} px`,
      );
      assertEquals(problems, []);
    } finally {
      await ba.close();
    }
  },
});
