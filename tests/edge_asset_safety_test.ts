/**
 * Asset safety: the content-type allow-list (403, never cached), SVG's
 * script-forbidding CSP, nosniff on every asset answer, and bot protection
 * (403 before any cache lookup or upstream fetch, counted as blocked, no bytes).
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { hostMappingClient } from "./fakes/asset_host.ts";
import { assetHostFixture } from "./fakes/image_host_fixture.ts";
import type { EdgeAssetSettings } from "../lib/kv/snapshot.ts";
import { AI_CRAWLER_TOKENS, SCRAPER_TOKENS } from "../lib/base/bots.ts";

const DEFAULTS: EdgeAssetSettings = {
  ttl: 86400,
  allowedTypes: null,
  blockBots: true,
  allowImageSearchBots: false,
  referer: null,
};

const imgix = (assets: Partial<EdgeAssetSettings> = {}) =>
  assetHostFixture((host) => ({
    snapshot: {
      cms: "imgix",
      provider: { cms: "imgix", imgixDomain: "acme.imgix.net" },
      assets: { ...DEFAULTS, ...assets },
    },
    upstream: hostMappingClient(["acme.imgix.net"], host),
  }));

const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const GOOGLE_IMAGE = "Googlebot-Image/1.0";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36";

// ---- allow-list ----

Deno.test("an upstream type outside the default allow-list is 403, with nosniff, never cached", async () => {
  await using t = await imgix();
  // extensions that say nothing: the upstream's Content-Type decides
  for (const p of ["/pages/x.page", "/blob/x.bin"]) {
    for (let i = 0; i < 2; i++) {
      const r = await t.fx.request(p);
      assertEquals(r.status, 403, p);
      assertEquals((await r.json()).error.code, "type_not_allowed", p);
      assertEquals(r.headers.get("x-content-type-options"), "nosniff", p);
    }
    assertEquals(t.host.count(p), 2, `${p} fetched again: not cached`);
  }
});

Deno.test("an extension outside the allow-list is 403 before any upstream fetch", async () => {
  await using t = await imgix();
  for (const p of ["/pages/x.html", "/pages/x.js", "/bin/x.exe", "/x.PHP"]) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 403, p);
    assertEquals((await r.json()).error.code, "type_not_allowed", p);
    assertEquals(r.headers.get("x-content-type-options"), "nosniff", p);
  }
  assertEquals(t.host.seen.length, 0);
});

Deno.test("the default allow-list serves images, pdf, video and fonts", async () => {
  await using t = await imgix();
  for (
    const p of ["/a.jpg", "/a.png", "/a.webp", "/a.svg", "/a.pdf", "/a.mp4", "/a.mov", "/f.woff2"]
  ) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 200, p);
    assertEquals(r.headers.get("x-content-type-options"), "nosniff", p);
    await r.arrayBuffer();
  }
});

Deno.test("SVG is served with a CSP that forbids scripts, on the miss and on the hit", async () => {
  await using t = await imgix();
  for (const expect of ["MISS", "HIT"]) {
    const r = await t.fx.request("/logo.svg");
    assertEquals(r.headers.get("x-cachely-cache"), expect);
    assertMatch(r.headers.get("content-security-policy") ?? "", /script-src 'none'/);
    assertMatch(r.headers.get("content-security-policy") ?? "", /sandbox/);
    await r.arrayBuffer();
  }
  const png = await t.fx.request("/a.png");
  assertEquals(png.headers.get("content-security-policy"), null);
  await png.arrayBuffer();
});

Deno.test("a tenant's own allow-list: exact types and families", async () => {
  await using t = await imgix({ allowedTypes: ["image/png", "text"] });
  const png = await t.fx.request("/a.png");
  assertEquals(png.status, 200);
  await png.arrayBuffer();
  const jpg = await t.fx.request("/a.jpg");
  assertEquals(jpg.status, 403);
  await jpg.body?.cancel();
  const html = await t.fx.request("/a.html");
  assertEquals(html.status, 200, "the text family was allowed");
  await html.body?.cancel();
});

Deno.test("a forwarded range of a refused type is 403 too", async () => {
  await using t = await imgix();
  const r = await t.fx.request("/x.bin", { headers: { range: "bytes=0-9" } });
  assertEquals(r.status, 403);
  assertEquals(r.headers.get("x-content-type-options"), "nosniff");
  await r.body?.cancel();
});

// ---- bots ----

Deno.test("scrapers and AI crawlers are 403 before the cache and the upstream; counted as blocked", async () => {
  await using t = await imgix();
  const warm = await t.fx.request("/a.png", { headers: { "user-agent": BROWSER } });
  assertEquals(warm.status, 200);
  await warm.arrayBuffer();
  const r = await t.fx.request("/a.png", { headers: { "user-agent": GPTBOT } });
  assertEquals(r.status, 403, "even though the object is cached");
  assertEquals((await r.json()).error.code, "bot_blocked");
  assertEquals(r.headers.get("x-content-type-options"), "nosniff");
  const miss = await t.fx.request("/new.png", { headers: { "user-agent": "CCBot/2.0" } });
  assertEquals(miss.status, 403);
  await miss.body?.cancel();
  assertEquals(t.host.seen.length, 1, "no upstream fetch for bots");
  const rec = t.fx.usage.filter((u) => u.status === 403);
  assertEquals(rec.length, 2);
  for (const u of rec) {
    assertEquals(u.blocked, true);
    assertEquals(u.bytes, 0);
    assertEquals(u.cache, null);
  }
  assertEquals(t.fx.usage.filter((u) => u.status === 200)[0].blocked, undefined);
});

Deno.test("every token on the maintained list is refused; browsers and search crawlers are not", async () => {
  await using t = await imgix();
  for (const token of [...AI_CRAWLER_TOKENS, ...SCRAPER_TOKENS]) {
    const r = await t.fx.request("/a.png", { headers: { "user-agent": `Mozilla/5.0 (${token})` } });
    assertEquals(r.status, 403, token);
    await r.body?.cancel();
  }
  for (
    const ua of [BROWSER, "Googlebot/2.1 (+http://www.google.com/bot.html)", "Slackbot 1.0", ""]
  ) {
    const r = await t.fx.request("/a.png", { headers: { "user-agent": ua } });
    assertEquals(r.status, 200, ua);
    await r.arrayBuffer();
  }
});

Deno.test("search engines' image bots: refused by default, allowed per tenant", async () => {
  await using t = await imgix();
  const r = await t.fx.request("/a.png", { headers: { "user-agent": GOOGLE_IMAGE } });
  assertEquals(r.status, 403);
  await r.body?.cancel();
  await t.fx.update({ assets: { ...DEFAULTS, allowImageSearchBots: true } });
  const ok = await t.fx.request("/a.png", { headers: { "user-agent": GOOGLE_IMAGE } });
  assertEquals(ok.status, 200);
  await ok.arrayBuffer();
  const still = await t.fx.request("/a.png", { headers: { "user-agent": GPTBOT } });
  assertEquals(still.status, 403, "AI crawlers stay blocked");
  await still.body?.cancel();
});

Deno.test("bot protection can be switched off per tenant", async () => {
  await using t = await imgix({ blockBots: false });
  const r = await t.fx.request("/a.png", { headers: { "user-agent": GPTBOT } });
  assertEquals(r.status, 200);
  await r.arrayBuffer();
});

Deno.test("bot protection covers assets only: the API proxy is not affected", async () => {
  await using t = await imgix();
  const r = await t.fx.request("/~api/x", { headers: { "user-agent": GPTBOT } });
  assertEquals(r.status !== 403, true);
  await r.body?.cancel();
});

Deno.test("narrowing the allow-list never serves an object stored under the wider one", async () => {
  await using t = await imgix({ allowedTypes: ["image"] });
  const r = await t.fx.request("/a.png");
  assertEquals(r.status, 200);
  await r.arrayBuffer();
  await t.fx.update({ assets: { ...DEFAULTS, allowedTypes: ["image/jpeg"] } });
  const after = await t.fx.request("/a.png");
  assertEquals(after.status, 403);
  await after.body?.cancel();
});
