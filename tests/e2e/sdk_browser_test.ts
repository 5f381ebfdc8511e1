// deno-lint-ignore-file no-explicit-any -- the page's result is plain JSON
/**
 * The built @cachely/sdk (sdk/dist/cachely.mjs) in Debian's Chromium: a page on its
 * own origin calls Contentful's and Prismic's API URLs through createCachelyFetch,
 * with an `Authorization` header the wrapper must drop, captures the experiment
 * assignment and posts a conversion event cross-origin. Chromium resolves
 * `<slug>.localhost` to loopback by itself.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { BACKENDS, serveOnLoopback } from "../harness.ts";
import { CF_SPACE } from "../fakes/cms_apis.ts";
import { sdkWorld } from "../sdk_world.ts";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, inCi } from "./browser.ts";

const DIST = new URL("../../sdk/dist/", import.meta.url);

function page(args: Record<string, string>): string {
  return `<!doctype html><title>sdk</title><script type="module">
import * as sdk from "/sdk/cachely.mjs";
const a = ${JSON.stringify(args)};
const describe = (e) => e.constructor.name + ": " + e.message;
window.result = (async () => {
  const out = { version: sdk.VERSION };
  const tracker = sdk.createCachelyExperimentTracker({ tenantSlug: "pr-shop", endpoint: a.endpoint });
  const cf = sdk.createCachelyFetch({
    tenant: "cf-shop",
    proxyDomain: a.proxyDomain,
    provider: { cms: "contentful", spaceId: "${CF_SPACE}" },
  });
  const entries = await (await cf(
    "https://cdn.contentful.com/spaces/${CF_SPACE}/environments/master/entries?content_type=post",
    { headers: { Authorization: "Bearer must-not-leave-the-browser" } },
  )).json();
  out.hero = entries.includes.Asset[0].fields.file.url;
  const pr = sdk.createCachelyFetch({
    tenant: "pr-shop",
    proxyDomain: a.proxyDomain,
    provider: { cms: "prismic", repository: "my-repo" },
    experiments: tracker,
  });
  const docs = await (await pr("https://my-repo.cdn.prismic.io/api/v2/documents/search?ref=master-ref-1")).json();
  out.image = docs.results[0].data.image.url;
  out.assignment = tracker.getAssignment();
  out.stored = JSON.parse(sessionStorage.getItem("cachely.experiment") ?? "null");
  out.track = await tracker.track("signup", { plan: "pro" });
  try {
    sdk.createCachelyFetch({ tenant: "Bad Shop", provider: "generic" });
  } catch (e) {
    out.bad = e.message;
  }
  const dead = sdk.createCachelyFetch({ tenantOrigin: a.deadOrigin, provider: sdk.createGenericProvider({ id: "dead" }) });
  out.networkWrapped = await dead("/x").then(() => null, describe);
  out.networkDirect = await fetch(a.deadOrigin + "/~api/x").then(() => null, describe);
  return out;
})().catch((e) => ({ failed: describe(e) }));
</script>`;
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `sdk (built) in Chromium: fetch wrapper, asset URLs, tracker, bad input [${backend}]`,
    ignore: !hasChromium && !inCi,
    sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
    sanitizeOps: false,
    async fn() {
      if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
      const w = await sdkWorld(backend);
      const site = serveOnLoopback(async (req) => {
        const path = new URL(req.url).pathname;
        if (path.startsWith("/sdk/") && /^[a-z.-]+\.mjs$/.test(path.slice(5))) {
          return new Response(await Deno.readTextFile(new URL(path.slice(5), DIST)), {
            headers: { "content-type": "text/javascript" },
          });
        }
        if (path === "/") {
          return new Response(page(w.args), { headers: { "content-type": "text/html" } });
        }
        return new Response("not found", { status: 404 });
      });
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const tab = await browser.newPage();
        await tab.goto(site.url);
        const out: any = await tab.evaluate(() => (globalThis as any).result);
        const m = JSON.stringify(out);
        assertEquals(out.failed, undefined, m);
        assertEquals(out.version, "0.14.0", m);
        assertEquals(new URL(out.hero).host, `cf-shop.localhost:${w.port}`, m);
        assertEquals(new URL(out.image).host, `pr-shop.localhost:${w.port}`, m);
        assert(["control", "casual"].includes(out.assignment?.variantKey), m);
        assertEquals(out.stored.latestExperimentId, out.assignment.experimentId, m);
        assertEquals(out.track.ok, true, m);
        assert(out.bad.includes("invalid option tenant"), m);
        assert(out.networkWrapped?.startsWith("TypeError: "), m);
        assertEquals(out.networkWrapped, out.networkDirect, m);
        // Upstream saw the tenant's stored token (the edge injects it), whatever the page sent.
        const cf = w.cms.seen.filter((s) => s.path.startsWith(`/spaces/${CF_SPACE}/`));
        assert(cf.length > 0);
        for (const s of cf) {
          assertEquals(s.headers.get("authorization"), "Bearer cf-delivery-token");
        }
      } finally {
        await browser.close();
        await site.close();
        await w.close();
      }
    },
  });
}
