/**
 * The asset proxy: image/video host routing (SPEC "The image/video host
 * integration"), the host-prefixed scheme for other providers, body rewriting,
 * and Range requests (tests/fixtures/corpora/range-cases-nginx.json as a table).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ASSET_LAST_MODIFIED, assetBytes, hostMappingClient } from "./fakes/asset_host.ts";
import { assetHostFixture, bytesOf, imageHostFixture } from "./fakes/image_host_fixture.ts";

const imageHost = () => imageHostFixture();
const contentful = () =>
  assetHostFixture((host) => ({
    snapshot: { cms: "contentful" },
    upstream: hostMappingClient(["images.ctfassets.net", "evil.example"], host),
  }));

// ---- happy: image/video host ----

Deno.test("/image/upload/ and /video/upload/ go to {asset_host}/<cloud>/…, bytes intact", async () => {
  await using t = await imageHost();
  const img = await t.fx.request("/image/upload/v1700000000/folder/cat.jpg");
  assertEquals(img.status, 200);
  assertEquals(img.headers.get("content-type"), "image/jpeg");
  assertEquals(await bytesOf(img), assetBytes("/demo/image/upload/v1700000000/folder/cat.jpg"));
  const vid = await t.fx.request("/video/upload/v1/clip.mp4");
  assertEquals(vid.headers.get("content-type"), "video/mp4");
  await vid.arrayBuffer();
  assertEquals(t.host.seen.map((s) => s.path), [
    "/demo/image/upload/v1700000000/folder/cat.jpg",
    "/demo/video/upload/v1/clip.mp4",
  ]);
});

Deno.test("the client-side form /<cloud>/image/upload/ shares the key of /image/upload/", async () => {
  await using t = await imageHost();
  await (await t.fx.request("/demo/image/upload/v1/a.jpg")).arrayBuffer();
  const short = await t.fx.request("/image/upload/v1/a.jpg");
  assertEquals(short.headers.get("x-cachely-cache"), "HIT");
  await short.arrayBuffer();
  assertEquals(t.host.count("/demo/image/upload/v1/a.jpg"), 1);
});

Deno.test("transformation segments are kept upstream and in the cache key", async () => {
  await using t = await imageHost();
  const a = await t.fx.request("/image/upload/w_800,h_600,c_fill/v1/a.jpg");
  const b = await t.fx.request("/image/upload/w_400,h_300,c_fill/v1/a.jpg");
  assertEquals(b.headers.get("x-cachely-cache"), "MISS");
  await a.arrayBuffer();
  await b.arrayBuffer();
  assertEquals(t.host.seen.map((s) => s.path), [
    "/demo/image/upload/w_800,h_600,c_fill/v1/a.jpg",
    "/demo/image/upload/w_400,h_300,c_fill/v1/a.jpg",
  ]);
  const again = await t.fx.request("/image/upload/w_800,h_600,c_fill/v1/a.jpg");
  assertEquals(again.headers.get("x-cachely-cache"), "HIT");
  await again.arrayBuffer();
});

Deno.test("query parameters on image URLs are stripped from the key (and not forwarded)", async () => {
  await using t = await imageHost();
  await (await t.fx.request("/image/upload/v1/q.jpg?_a=BAVAEAID0")).arrayBuffer();
  const other = await t.fx.request("/image/upload/v1/q.jpg?cache_bust=2");
  assertEquals(other.headers.get("x-cachely-cache"), "HIT");
  await other.arrayBuffer();
  assertEquals(t.host.seen.map((s) => s.query), [""]);
});

Deno.test("an asset version bump makes new asset keys", async () => {
  await using t = await imageHost();
  await (await t.fx.request("/image/upload/v1/b.jpg")).arrayBuffer();
  await t.fx.update({ versions: { api: 1, assets: 2, html: 1 } });
  const r = await t.fx.request("/image/upload/v1/b.jpg");
  assertEquals(r.headers.get("x-cachely-cache"), "MISS");
  await r.arrayBuffer();
});

// ---- happy: host-prefixed provider assets ----

Deno.test("/~assets/<allow-listed host>/… proxies the provider asset with its query", async () => {
  await using t = await contentful();
  const r = await t.fx.request("/~assets/images.ctfassets.net/sp/id/tok/cat.jpg?w=10&fm=webp");
  assertEquals(r.status, 200);
  await r.arrayBuffer();
  const seen = t.host.seen.at(-1)!;
  assertEquals(seen.hostHeader, "images.ctfassets.net");
  assertEquals(seen.path, "/sp/id/tok/cat.jpg");
  assertEquals(seen.query, "fm=webp&w=10");
  const hit = await t.fx.request("/~assets/images.ctfassets.net/sp/id/tok/cat.jpg?fm=webp&w=10");
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  await hit.arrayBuffer();
});

Deno.test("CSS bodies from an asset host get provider URLs rewritten (when CSS is allowed)", async () => {
  await using t = await contentful();
  await t.fx.update({
    assets: {
      ttl: 86400,
      allowedTypes: ["image", "text/css"],
      blockBots: true,
      allowImageSearchBots: false,
      referer: null,
    },
  });
  const ref = encodeURIComponent("https://images.ctfassets.net/sp/bg.png");
  const css = await t.fx.request(`/~assets/images.ctfassets.net/sp/site.css?ref=${ref}`);
  assertEquals(
    await css.text(),
    `body{background:url(${t.fx.origin}/~assets/images.ctfassets.net/sp/bg.png)}`,
  );
});

// ---- happy: ranges ----

type RangeCase = [string, number, string | null];
const corpus = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/corpora/range-cases-nginx.json", import.meta.url)),
) as { cases: RangeCase[] };

Deno.test("Range from a cached whole object follows range-cases-nginx.json", async () => {
  await using t = await imageHost();
  const path = "/image/upload/v1/range.jpg";
  const whole = await bytesOf(await t.fx.request(path)); // fills the cache (1000 bytes)
  assertEquals(whole.byteLength, 1000);
  for (const [range, status, expect] of corpus.cases) {
    const r = await t.fx.request(path, { headers: { range } });
    assertEquals(r.status, status, range);
    assertEquals(r.headers.get("x-cachely-cache"), "HIT", range);
    const body = await bytesOf(r);
    if (status === 206 && expect?.startsWith("bytes ")) {
      assertEquals(r.headers.get("content-range"), expect, range);
      const [, s, e] = /bytes (\d+)-(\d+)/.exec(expect)!;
      assertEquals(body, whole.subarray(Number(s), Number(e) + 1), range);
    } else if (status === 206 && !expect?.startsWith("multipart")) {
      // "last-byte-pos clamped"
      assertEquals(r.headers.get("content-range"), "bytes 0-999/1000", range);
      assertEquals(body, whole, range);
    } else if (status === 206) {
      assertMatch(r.headers.get("content-type")!, /^multipart\/byteranges; boundary=/, range);
      const text = new TextDecoder("latin1").decode(body);
      const parts = text.match(/Content-Range: bytes \d+-\d+\/1000/g) ?? [];
      assertEquals(parts.length, 3, range);
    } else if (status === 416) {
      assertEquals(r.headers.get("content-range"), "bytes */1000", range);
    } else {
      assertEquals(body.byteLength, 1000, range);
    }
  }
  assertEquals(t.host.seen.length, 1, "every range came from the cached object");
});

Deno.test("an open Range without a cached object streams from its cached slice", async () => {
  await using t = await imageHost();
  const r = await t.fx.request("/video/upload/v1/clip.mp4", {
    headers: { range: "bytes=100-" },
  });
  assertEquals(r.status, 206);
  assertEquals(r.headers.get("content-range"), "bytes 100-999/1000");
  assertEquals(r.headers.get("x-cachely-cache"), "MISS");
  assertEquals((await bytesOf(r)).byteLength, 900);
  assertEquals(t.host.seen[0].headers.get("range"), "bytes=0-1048575", "the slice, not the range");
  const past = await t.fx.request("/video/upload/v1/clip.mp4", {
    headers: { range: "bytes=5000-" },
  });
  assertEquals(past.status, 416);
  assertEquals(past.headers.get("content-range"), "bytes */1000", "from the slice's total");
  assertEquals((await bytesOf(past)).byteLength, 0);
  // a closed range comes from the same slice (tests/edge_slices_test.ts)
  const closed = await t.fx.request("/video/upload/v1/clip.mp4", {
    headers: { range: "bytes=100-199" },
  });
  assertEquals(closed.headers.get("content-range"), "bytes 100-199/1000");
  assertEquals(closed.headers.get("x-cachely-cache"), "HIT");
  await closed.arrayBuffer();
  assertEquals(t.host.seen.length, 1);
});

Deno.test("bytes=0- (what media players send first) fills the cache and answers 206", async () => {
  await using t = await imageHost();
  const r = await t.fx.request("/video/upload/v1/p.mp4", { headers: { range: "bytes=0-" } });
  assertEquals(r.status, 206);
  assertEquals(r.headers.get("content-range"), "bytes 0-999/1000");
  await r.arrayBuffer();
  const next = await t.fx.request("/video/upload/v1/p.mp4", { headers: { range: "bytes=500-" } });
  assertEquals(next.headers.get("x-cachely-cache"), "HIT");
  assertEquals(next.headers.get("content-range"), "bytes 500-999/1000");
  await next.arrayBuffer();
  assertEquals(t.host.seen.length, 1);
});

Deno.test("If-Range: a matching ETag gets the range, a stale one the whole object", async () => {
  await using t = await imageHost();
  const path = "/image/upload/v1/ir.jpg";
  const full = await t.fx.request(path);
  const etag = full.headers.get("etag")!;
  await full.arrayBuffer();
  const ok = await t.fx.request(path, { headers: { range: "bytes=0-9", "if-range": etag } });
  assertEquals(ok.status, 206);
  await ok.arrayBuffer();
  const stale = await t.fx.request(path, { headers: { range: "bytes=0-9", "if-range": '"old"' } });
  assertEquals(stale.status, 200);
  assertEquals((await bytesOf(stale)).byteLength, 1000);
});

Deno.test("If-None-Match with the cached ETag is 304 without a body; another ETag gets 200", async () => {
  await using t = await imageHost();
  const path = "/image/upload/v1/inm.jpg";
  const full = await t.fx.request(path);
  const etag = full.headers.get("etag")!;
  await full.arrayBuffer();
  const same = await t.fx.request(path, { headers: { "if-none-match": `"x", W/${etag}` } });
  assertEquals(same.status, 304);
  assertEquals(same.headers.get("etag"), etag);
  assertEquals(same.headers.get("x-cachely-cache"), "HIT");
  assertEquals((await bytesOf(same)).byteLength, 0);
  const other = await t.fx.request(path, { headers: { "if-none-match": '"nope"' } });
  assertEquals(other.status, 200);
  assertEquals((await bytesOf(other)).byteLength, 1000);
  assertEquals(t.host.seen.length, 1);
});

Deno.test("If-Modified-Since: 304 when not modified since; If-None-Match takes precedence", async () => {
  await using t = await imageHost();
  const path = "/image/upload/v1/ims.jpg";
  const full = await t.fx.request(path);
  assertEquals(full.headers.get("last-modified"), ASSET_LAST_MODIFIED);
  await full.arrayBuffer();
  const at = Date.parse(ASSET_LAST_MODIFIED);
  const since = (ms: number) => new Date(ms).toUTCString();
  const cases: [Record<string, string>, number, string][] = [
    [{ "if-modified-since": ASSET_LAST_MODIFIED }, 304, "same date"],
    [{ "if-modified-since": since(at + 86_400_000) }, 304, "a later date"],
    [{ "if-modified-since": since(at - 1000) }, 200, "an earlier date"],
    [{ "if-modified-since": "not a date" }, 200, "an unparseable date is ignored"],
    [{ "if-modified-since": ASSET_LAST_MODIFIED, "if-none-match": '"nope"' }, 200, "INM decides"],
  ];
  for (const [headers, status, why] of cases) {
    const res = await t.fx.request(path, { headers });
    assertEquals(res.status, status, why);
    assertEquals((await bytesOf(res)).byteLength, status === 304 ? 0 : 1000, why);
  }
  assertEquals(t.host.seen.length, 1);
});

// ---- errors ----

Deno.test("another cloud's path, other resource types and unknown paths are 404", async () => {
  await using t = await imageHost();
  for (
    const p of ["/other/image/upload/v1/a.jpg", "/raw/upload/v1/a.txt", "/image/private/x.jpg"]
  ) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 404, p);
    await r.arrayBuffer();
  }
  assertEquals(t.host.seen.length, 0);
});

Deno.test("hostile asset paths are 400 and never fetched", async () => {
  await using t = await imageHost();
  for (
    const p of [
      "/image/upload/a%2f..%2f..%2fother/x.jpg",
      "/demo/video/upload/a%5cb",
      "/image/upload//x",
    ]
  ) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 400, p);
    assertEquals((await r.json()).error.code, "invalid_path");
  }
  assertEquals(t.host.seen.length, 0);
});

Deno.test("/~assets/ for a host outside the provider's allow-list is 404 and never fetched", async () => {
  await using t = await contentful();
  for (
    const p of ["/~assets/evil.example/x.jpg", "/~assets/127.0.0.1/x", "/~assets/cdn.sanity.io/x"]
  ) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 404, p);
    await r.arrayBuffer();
  }
  assertEquals(t.host.seen.length, 0);
});

Deno.test("asset writes are 405; an upstream 404 passes through uncached", async () => {
  await using t = await imageHost();
  const post = await t.fx.request("/image/upload/v1/a.jpg", { method: "POST", body: "x" });
  assertEquals(post.status, 405);
  assertEquals(post.headers.get("allow"), "GET, HEAD");
  await post.arrayBuffer();
  const missing = await t.fx.request("/image/upload/v1/missing.jpg");
  assertEquals(missing.status, 404);
  await missing.arrayBuffer();
  assert(t.fx.edge.cache.lru.count === 0);
});
