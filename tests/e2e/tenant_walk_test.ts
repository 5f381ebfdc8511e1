/**
 * The tenant dashboard walked in Debian's Chromium like a tenant admin would: sign up →
 * create tenant → configure the API → purge → add a domain → invite → create a rule →
 * preview → activate → create an experiment and activate it → traffic through the tenant
 * host (several visitors) with conversions → usage charts and experiment results →
 * admin console. Every tenant page is screenshotted at 1280×800 and 390×844 into
 * tests/e2e/screenshots/ (git-ignored) and checked for sideways scroll at 390 px.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { BACKENDS, createTestApp, serveOnLoopback } from "../harness.ts";
import { buildIslands, CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";
import { screenshot } from "./screenshot.ts";
import { startUpstream } from "../fakes/upstream.ts";
import { startFakeOpenAI } from "../fakes/openai.ts";
import { startFakeMail } from "../fakes/mail.ts";
import { TENANT_AREAS } from "../../components/nav.ts";
import { aiEngineFor } from "../../lib/ai/engine.ts";

const backend = BACKENDS[BACKENDS.length - 1];
const SHOTS = new URL("./screenshots/", import.meta.url);

/** Waits for the announcement of an enhanced form and returns its text. */
async function announced(page: Page, tone: "ok" | "error" = "ok"): Promise<string> {
  const el = await page.waitForSelector(`#announce .notice.${tone}`);
  return (await el.textContent()) ?? "";
}

async function submit(page: Page, form: string, button: string, tone: "ok" | "error" = "ok") {
  await page.evaluate(() => document.getElementById("announce")!.replaceChildren());
  await page.click(`form[aria-label="${form}"] button:has-text("${button}")`);
  return await announced(page, tone);
}

async function shoot(
  browser: Browser,
  cookies: string,
  origin: string,
  path: string,
  name: string,
) {
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h } });
    const [k, v] = cookies.split("=");
    await ctx.addCookies([{ name: k, value: v, url: origin }]);
    const page = await ctx.newPage();
    await page.goto(origin + path); // waits for "load": the pages fetch nothing after it
    const file = new URL(`${name}-${w}.png`, SHOTS).pathname;
    await screenshot(page, { path: file, fullPage: true }, async () => {
      const fresh = await ctx.newPage();
      await fresh.goto(origin + path);
      return fresh;
    });
    if (w === 390) {
      const sideways = await page.evaluate(() =>
        document.documentElement.scrollWidth > document.documentElement.clientWidth
      );
      assert(!sideways, `${path} scrolls sideways at 390 px`);
    }
    await ctx.close();
  }
}

Deno.test({
  name: `tenant dashboard walk in Chromium [${backend}]`,
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    await buildIslands();
    await Deno.mkdir(SHOTS, { recursive: true });
    const upstream = startUpstream();
    upstream.route(
      "/posts",
      () => Response.json({ title: "Our spring collection", items: [{ title: "Linen shirt" }] }),
    );
    const openai = startFakeOpenAI();
    const mail = startFakeMail();
    let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
    const server = serveOnLoopback((req, info) => handler(req, info));
    const origin = `http://localhost:${server.port}`;
    const app = await createTestApp(backend, {
      env: openai.env({
        PROXY_DOMAIN: `localhost:${server.port}`,
        PUBLIC_URL: origin,
        MAIL_TRANSPORT_URL: mail.url,
        ADMIN_EMAILS: "owner@example.com",
        REQUEST_LOG_SAMPLE_RATE: "1",
        EDGE_SNAPSHOT_TTL_MS: "0",
      }),
    });
    handler = (req, info) => app.handler(req, info);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("dialog", (d) => d.accept());
      const dash = `${origin}/dashboard/acme`;

      // Sign up and create a tenant.
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
      await page.click('button:has-text("Create tenant")');
      await page.waitForURL(dash);

      // Configure the API proxy: the page shows the saved values without a reload.
      await page.click('nav.side a:has-text("API proxy")');
      await page.fill('input[name="apiOrigin:null"]', upstream.url);
      await page.fill('input[name="apiCacheTTL:number"]', "120");
      assertStringIncludes(await submit(page, "API configuration", "Save API config"), "TTL 120");
      assertEquals(await page.inputValue('input[name="apiCacheTTL:number"]'), "120");
      // A refused value is named in place and in red.
      await page.fill('input[name="apiCacheTTL:number"]', "-1");
      await page.evaluate(() =>
        document.querySelector<HTMLInputElement>('input[name="apiCacheTTL:number"]')!
          .removeAttribute(
            "min",
          )
      );
      assertStringIncludes(
        await submit(page, "API configuration", "Save API config", "error"),
        "apiCacheTTL",
      );
      assertEquals(
        await page.getAttribute('input[name="apiCacheTTL:number"]', "aria-invalid"),
        "true",
      );
      await page.fill('input[name="token"]', "CANARY-walk-token");
      assertStringIncludes(await submit(page, "Upstream token", "Store token"), "Token stored");

      // Purge with a confirmation; the versions on the page follow.
      await page.click('nav.side a:has-text("Cache")');
      assertStringIncludes(await submit(page, "Purge API", "Purge API"), "versions now api 2");
      assertStringIncludes(await page.textContent("#content") ?? "", "2API cache version");

      // Add a domain: DNS instructions with copy buttons and a pending badge.
      await page.click('nav.side a:has-text("Domains")');
      await page.fill('input[name="hostname"]', "cdn.example.com");
      assertStringIncludes(
        await submit(page, "Add a domain", "Add domain"),
        "Added cdn.example.com",
      );
      assertStringIncludes(await page.textContent("#content") ?? "", "_cachely.cdn.example.com");
      assert(await page.isVisible('button[data-copy^="cachely-verify="]'));
      assertStringIncludes(await page.textContent(".badge") ?? "", "pending");

      // Invite: the accept link to copy, and whether the mail went out.
      await page.click('nav.side a:has-text("Members")');
      await page.fill(
        'form[aria-label="Invite someone"] input[name="email"]',
        "editor@example.com",
      );
      await page.selectOption('form[aria-label="Invite someone"] select[name="role"]', "editor");
      assertStringIncludes(await submit(page, "Invite someone", "Send invite"), "Mail sent: yes");
      assertStringIncludes(
        await page.textContent("#announce code") ?? "",
        "/invites/accept?token=",
      );
      assertStringIncludes(await page.textContent("#content") ?? "", "editor@example.com");
      assertEquals(mail.sent.filter((m) => m.to === "editor@example.com").length, 1);

      // A rule, previewed side by side, then activated.
      await page.click('nav.side a:has-text("AI transforms")');
      const create = 'form[aria-label="Create a rule"]';
      await page.selectOption(`${create} select[name="presetId"]`, "rewrite_tone");
      await page.fill(`${create} input[name="fieldSelector"]`, "title");
      await page.fill(`${create} input[name="profile"]`, "formal");
      await page.fill(`${create} input[name="tone"]`, "formal");
      assertStringIncludes(
        await submit(page, "Create a rule", "Create rule"),
        "created as a draft",
      );
      await page.click('button:has-text("Run preview")');
      const mark = await page.waitForSelector('section[aria-label="Transformed"] mark.changed');
      assertStringIncludes(await mark.textContent() ?? "", "[T] Our new product is here");
      await screenshot(page, {
        path: new URL("ai-preview-1280.png", SHOTS).pathname,
        fullPage: true,
      });
      assertStringIncludes(
        await submit(page, "Activate rule 1", "Activate"),
        "active on live traffic",
      );
      assertStringIncludes(await page.textContent('section[aria-label="Rule 1"]') ?? "", "active");

      // An experiment: control against the formal profile, activated.
      await page.click('nav.side a:has-text("Experiments")');
      const exp = 'form[aria-label="Create an experiment"]';
      await page.fill(`${exp} input[name="name"]`, "Formal titles");
      await page.fill(`${exp} input[name="routePattern"]`, "/posts");
      await page.fill(`${exp} input[name="variants.0.key"]`, "control");
      await page.fill(`${exp} input[name="variants.1.key"]`, "formal");
      await page.fill(`${exp} input[name="variants.1.transformProfile"]`, "formal");
      assertStringIncludes(
        await submit(page, "Create an experiment", "Create experiment"),
        "created",
      );
      assertStringIncludes(await submit(page, "Activate Formal titles", "Activate"), "is active");

      // Traffic through the tenant host from several visitors, and conversions.
      const seen: Record<string, number> = {};
      for (let i = 0; i < 12; i++) {
        const ctx = await browser.newContext({ userAgent: `WalkVisitor/${i} (X11; Linux)` });
        const p = await ctx.newPage();
        const res = await p.goto(`http://acme.localhost:${server.port}/~api/posts`);
        assertEquals(res?.status(), 200);
        const h = res!.headers();
        const key = h["x-cachely-variant-key"];
        seen[key] = (seen[key] ?? 0) + 1;
        if (i % 2 === 0) {
          const ev = await p.evaluate(async (body) => {
            const r = await fetch(body.url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body.event),
            });
            return r.status;
          }, {
            url: `${origin}/api/ai-experiments/events`,
            event: {
              tenantSlug: "acme",
              experimentId: Number(h["x-cachely-experiment-id"]),
              variantId: Number(h["x-cachely-variant-id"]),
              variantKey: key,
              eventName: "signup_click",
            },
          });
          assertEquals(ev, 200);
        }
        await ctx.close();
      }
      assert(seen.control > 0 && seen.formal > 0, `both variants served: ${JSON.stringify(seen)}`);
      await app.instance.usageAggregator.flush();
      await aiEngineFor(app.services).runs.flush();

      // Charts and results.
      await page.click('nav.side a:has-text("Usage & analytics")');
      const usage = await page.textContent("#content") ?? "";
      assertStringIncludes(usage, "Requests per day");
      const bars = await page.evaluate(() =>
        Array.from(document.querySelectorAll("figure.chart rect.bar"))
          .filter((r) => Number(r.getAttribute("height")) > 0).length
      );
      assert(bars > 0, "bars are drawn");
      assertStringIncludes(usage, "/~api/posts");
      await page.click('nav.side a:has-text("Experiments")');
      const results = await page.textContent('section[aria-label="Formal titles"]') ?? "";
      assertStringIncludes(results, "signup_click");
      assertStringIncludes(results, "Conversion per variant");
      assertStringIncludes(results, "baseline");

      // Every tenant page, both sizes, no sideways scroll on a phone.
      const [cookie] = (await page.context().cookies()).filter((c) =>
        c.name === "cachely_session" || c.httpOnly
      );
      for (const area of TENANT_AREAS) {
        const path = `/dashboard/acme${area.path ? `/${area.path}` : ""}`;
        await shoot(
          browser,
          `${cookie.name}=${cookie.value}`,
          origin,
          path,
          `tenant-${area.path || "overview"}`,
        );
      }
      await shoot(browser, `${cookie.name}=${cookie.value}`, origin, "/dashboard", "tenants");
      // Before (or without) JavaScript the same forms post and the page shows the outcome.
      const nojs = await browser.newContext({ javaScriptEnabled: false });
      await nojs.addCookies([{ name: cookie.name, value: cookie.value, url: origin }]);
      const plain = await nojs.newPage();
      await plain.goto(`${dash}/domains`);
      await plain.fill('form[aria-label="Add a domain"] input[name="hostname"]', "www.example.org");
      await plain.click('form[aria-label="Add a domain"] button[type="submit"]');
      await plain.waitForURL(`${dash}/domains`);
      assertStringIncludes(await plain.textContent("#announce") ?? "", "Added www.example.org");
      assertStringIncludes(await plain.textContent("#content") ?? "", "_cachely.www.example.org");
      await plain.goto(`${dash}/cache`);
      await plain.click('form[aria-label="Purge HTML"] button[type="submit"]');
      assertStringIncludes(await plain.textContent("main") ?? "", "Please confirm");
      await plain.click('button:has-text("Yes, continue")');
      await plain.waitForURL(`${dash}/cache`);
      assertStringIncludes(await plain.textContent("#announce") ?? "", "html 2");
      await nojs.close();

      const admin = await page.goto(`${origin}/admin`);
      assertEquals(admin?.status(), 200);
      await screenshot(page, {
        path: new URL("admin-walk-1280.png", SHOTS).pathname,
        fullPage: true,
      });
      assertEquals(errors, [], "no script errors on any page");
    } finally {
      await browser.close();
      await app.close();
      await server.close();
      await upstream.close();
      await openai.close();
      await mail.close();
    }
  },
});
