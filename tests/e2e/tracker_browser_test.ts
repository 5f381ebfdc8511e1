// deno-lint-ignore-file no-explicit-any -- page globals are read loosely
/**
 * The tracker in a real browser (Debian's Chromium, headless, driven by playwright-core):
 * a page served through the tenant's host fetches an experiment route, the tracker
 * captures the headers, a click on a `data-cachely-track` link posts exactly one event
 * that is in the database before the next page loads, the assignment survives a reload,
 * and with storage disabled the tracker still works.
 *
 * Without /usr/bin/chromium the test fails in CI (CI=true) and is skipped locally with a
 * message. Runs on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { BACKENDS, createTenant, createTestApp, serveOnLoopback, signUp } from "../harness.ts";
import type { TestApp } from "../harness.ts";
import { addRule } from "../experiments_helpers.ts";
import { startUpstream } from "../fakes/upstream.ts";
import { tenants } from "../../lib/db/schema/mod.ts";
import { eq } from "drizzle-orm";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";

const GOAL = "homepage_hero_cta_click";
const backend = BACKENDS[BACKENDS.length - 1];

const dist = (name: string) =>
  Deno.readTextFile(new URL(`../../sdk/dist/${name}`, import.meta.url));

/** The tenant's website: pages that load the tracker as a script tag or as an ES module. */
function website(app: TestApp, slug: string, endpoint: string) {
  const countEvents = async (visitor: string) =>
    (await app.services.dbHandle.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM experiment_events WHERE visitor_id = '${
        visitor.replaceAll("'", "")
      }' AND event_name = '${GOAL}'`,
    ))[0].n;
  const page = (head: string, next: string) =>
    `<!doctype html>
<html><head><meta charset="utf-8"><title>Home</title>${head}</head>
<body>
  <h1 id="title">…</h1>
  <a id="cta" href="${next}" data-cachely-track="${GOAL}" data-cachely-meta-position="hero"
     data-cachely-meta-Plan="pro"><span id="cta-inner">Get started</span></a>
</body></html>`;
  const boot = `
    window.initialAssignment = cachely.getAssignment();
    window.ready = fetch("/~api/posts/1").then((r) => r.json()).then((j) => {
      document.getElementById("title").textContent = j.title;
      return cachely.getAssignment();
    });`;
  const scriptTag = page(
    `<script src="/cachely-tracker.js" data-cachely-tenant="${slug}"
       data-cachely-endpoint="${endpoint}" data-cachely-wrap-fetch></script>
     <script>${boot}</script>`,
    "/next/script",
  );
  const moduleTag = page(
    `<script type="module">
       import { createTracker } from "/cachely-tracker.mjs";
       const cachely = createTracker({ tenantSlug: ${JSON.stringify(slug)}, endpoint: ${
      JSON.stringify(endpoint)
    } });
       cachely.enableDeclarativeTracking();
       cachely.enableDeclarativeTracking(); // twice: still one event per click
       window.cachely = cachely;
       window.fetch = cachely.wrapFetch(window.fetch.bind(window));
       ${boot}
     </script>`,
    "/next/module",
  );
  return serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    const html = (body: string) =>
      new Response(body, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      });
    const js = async (name: string) =>
      new Response(await dist(name), { headers: { "content-type": "text/javascript" } });
    if (url.pathname === "/" || url.pathname.startsWith("/home/")) return html(scriptTag);
    if (url.pathname.startsWith("/module/")) return html(moduleTag);
    if (url.pathname === "/cachely-tracker.js") return await js("cachely-tracker.js");
    if (url.pathname === "/cachely-tracker.mjs") return await js("cachely-tracker.mjs");
    if (url.pathname.startsWith("/next/")) {
      // The next page answers once the click's event is stored (bounded): a dropped or
      // never-sent event leaves count 0 on the page and fails the test.
      const visitor = url.searchParams.get("v") ?? "";
      let n = 0;
      for (let i = 0; i < 50 && n === 0; i++) {
        n = await countEvents(visitor);
        if (n === 0) await new Promise((r) => setTimeout(r, 100));
      }
      return html(`<!doctype html><title>Next</title><p id="count">${n}</p>`);
    }
    return new Response("not found", { status: 404 });
  });
}

Deno.test({
  name: `tracker in Chromium: capture, one event per click, reload, storage disabled [${backend}]`,
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    // The app must know its own port (PROXY_DOMAIN), so bind first and hand over after.
    let handler: Deno.ServeHandler = () => new Response("starting", { status: 503 });
    const server = serveOnLoopback((req, info) => handler(req, info));
    const origin = `http://localhost:${server.port}`;
    const app = await createTestApp(backend, {
      env: { PROXY_DOMAIN: `localhost:${server.port}`, PUBLIC_URL: origin },
      clock: undefined,
    });
    handler = (req, info) => app.handler(req, info);
    const api = startUpstream();
    api.route("/posts/1", () => Response.json({ title: "hello" }));
    let site: ReturnType<typeof serveOnLoopback> | null = null;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      // Tenant, website and an active experiment on /posts.
      const owner = await signUp(app);
      const slug = await createTenant(owner, { apiOrigin: api.url });
      site = website(app, slug, `${origin}/api/ai-experiments/events`);
      const put = await owner.put(`/api/tenants/${slug}`, { websiteOrigin: site.url });
      assertEquals(put.status, 200, put.text);
      const [t] = await app.services.db.select({ id: tenants.id }).from(tenants)
        .where(eq(tenants.slug, slug));
      await addRule(app, t.id, "casual");
      const created = await owner.post(`/api/tenants/${slug}/ai-experiments`, {
        name: "Hero",
        routePattern: "/posts",
        variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
      });
      const e = created.body;
      const act = await owner.patch(`/api/tenants/${slug}/ai-experiments/${e.id}`, {
        status: "active",
      });
      assertEquals(act.status, 200, act.text);
      const host = `http://${slug}.preview.localhost:${server.port}`;

      // 1. Script-tag tracker: capture, click, one stored event before the next page.
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(`${host}/`);
      const a = await page.evaluate(() => (globalThis as any).ready);
      assert(a, "an assignment is captured from the experiment response");
      assertEquals(a.experimentId, e.id);
      const variant = e.variants.find((v: { id: number }) => v.id === a.variantId);
      assert(variant, `variant ${a.variantId} belongs to the experiment`);
      assertEquals(a.variantKey, variant.key);
      assertEquals(
        a.profile,
        variant.transformProfile ?? "control",
        "x-cachely-experiment-profile is captured",
      );
      const visitor = await page.evaluate(() => (globalThis as any).cachely.getVisitorId());
      const stored = await page.evaluate(() => sessionStorage.getItem("cachely.experiment"));
      assertEquals(JSON.parse(stored!).latestExperimentId, e.id);
      // A JSON post with a custom header from the page: a real CORS preflight (OPTIONS) first.
      const direct = await page.evaluate(async ([ep, body]) => {
        const res = await fetch(ep as string, {
          method: "POST",
          headers: { "content-type": "application/json", "x-page-build": "e2e" },
          body: JSON.stringify(body),
        });
        return [res.status, await res.json()];
      }, [`${origin}/api/ai-experiments/events`, {
        tenantSlug: slug,
        experimentId: a.experimentId,
        variantId: a.variantId,
        variantKey: a.variantKey,
        eventName: "preflight_check",
        visitorId: "preflight",
      }]);
      assertEquals(direct[0], 200, "cross-origin JSON post after a preflight");
      assertEquals(direct[1].ok, true);
      // The link's href carries the visitor so the next page can look the event up.
      await page.evaluate((v) => {
        const el = document.getElementById("cta")!;
        el.setAttribute("href", `/next/script?v=${encodeURIComponent(v)}`);
      }, visitor);
      await Promise.all([page.waitForURL(/\/next\/script/), page.click("#cta-inner")]);
      assertEquals(await page.textContent("#count"), "1", "stored before the next page loaded");
      const rows = await app.services.dbHandle.query<Record<string, unknown>>(
        `SELECT * FROM experiment_events WHERE visitor_id = '${visitor}'`,
      );
      assertEquals(rows.length, 1, "exactly one event per click");
      assertEquals(rows[0].variant_id, a.variantId);
      assertEquals(rows[0].variant_key, a.variantKey);
      assertEquals(rows[0].event_name, GOAL);
      assertEquals(rows[0].metadata, { position: "hero", plan: "pro" });
      assertEquals(rows[0].url, `${host}/`);

      // 2. The assignment survives a reload (read from session storage before any fetch).
      await page.goto(`${host}/home/reload`);
      const initial = await page.evaluate(() => (globalThis as any).initialAssignment);
      assertEquals([initial?.experimentId, initial?.variantId], [a.experimentId, a.variantId]);
      const again = await page.evaluate(() => (globalThis as any).ready);
      assertEquals(again.variantId, a.variantId, "the same visitor keeps the same variant");
      assertEquals(await page.evaluate(() => (globalThis as any).cachely.getVisitorId()), visitor);
      assertEquals(errors, []);
      await ctx.close();

      // 3. Storage disabled (reading either storage throws, as when the user blocks it):
      // the ES-module tracker works from memory, listener enabled twice, one event.
      const blocked = await browser.newContext();
      await blocked.addInitScript(() => {
        for (const name of ["sessionStorage", "localStorage"]) {
          Object.defineProperty(globalThis, name, {
            configurable: true,
            get() {
              throw new DOMException("The operation is insecure.", "SecurityError");
            },
          });
        }
      });
      const p2 = await blocked.newPage();
      const errors2: string[] = [];
      p2.on("pageerror", (err) => errors2.push(String(err)));
      await p2.goto(`${host}/module/1`);
      const b = await p2.evaluate(() => (globalThis as any).ready);
      assertEquals(b.experimentId, e.id);
      const v2 = await p2.evaluate(() => (globalThis as any).cachely.getVisitorId());
      assert(typeof v2 === "string" && v2.length >= 16 && v2 !== visitor, "generated visitor id");
      await p2.evaluate((v) => {
        document.getElementById("cta")!.setAttribute("href", `/next/module?v=${v}`);
      }, v2);
      await Promise.all([p2.waitForURL(/\/next\/module/), p2.click("#cta")]);
      assertEquals(await p2.textContent("#count"), "1");
      const n2 = await app.services.dbHandle.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM experiment_events WHERE visitor_id = '${v2}'`,
      );
      assertEquals(n2[0].n, 1, "enabled twice, still one event per click");
      assertEquals(errors2, []);
      await blocked.close();
    } finally {
      await browser.close();
      await site?.close();
      await api.close();
      await app.close();
      await server.close();
    }
  },
});
