/**
 * Compressed hits (edge/cache/variants.ts, lib/http/encoding.ts) end to end on a real edge: each
 * stored copy decodes to the identity bytes, Accept-Encoding with q-values picks it, Vary and
 * a per-coding ETag go with it, ranges are cut from the identity body, and a malformed header
 * gets identity, never a 500.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { encodingsSettled } from "../edge/cache/variants.ts";
import { bytesOf, imageHostFixture } from "./fakes/image_host_fixture.ts";

/** A CMS list answer of about 40 KB: entries that differ a little, as real ones do. */
function cmsList(n = 120): string {
  const items = Array.from({ length: n }, (_, i) => ({
    sys: { id: `entry-${i}`, type: "Entry", revision: 3 + (i % 5) },
    fields: {
      title: `Article number ${i} about caching`,
      slug: `article-${i}`,
      body: `Lorem ipsum dolor sit amet ${i}, consectetur adipiscing elit.`.repeat(3),
      tags: ["news", i % 2 ? "edge" : "cms"],
    },
  }));
  return JSON.stringify({ total: n, items });
}

async function setup() {
  const up = startUpstream();
  const body = cmsList();
  up.route("/entries", () =>
    new Response(body, {
      headers: { "content-type": "application/json", etag: '"v1"' },
    }));
  up.route(
    "/png",
    () => new Response(new Uint8Array(4000).fill(1), { headers: { "content-type": "image/png" } }),
  );
  const fx = await edgeFixture(up.url);
  return {
    up,
    fx,
    body: new TextEncoder().encode(body),
    /** A request with this Accept-Encoding (null: none), after the copies are made. */
    async get(ae: string | null, path = "/~api/entries", init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (ae !== null) headers.set("accept-encoding", ae);
      return await fx.request(path, { ...init, headers });
    },
    async [Symbol.asyncDispose]() {
      fx.close();
      await up.close();
    },
  };
}

/** Fills the cache, hits it once (copies are made on the first hit) and waits for them. */
async function filled(t: Awaited<ReturnType<typeof setup>>, path = "/~api/entries") {
  await (await t.get(null, path)).arrayBuffer();
  await (await t.get(null, path)).arrayBuffer();
  await encodingsSettled();
}

function decode(coding: string | null, bytes: Uint8Array): Uint8Array {
  if (coding === "br") return new Uint8Array(brotliDecompressSync(bytes));
  if (coding === "gzip") return new Uint8Array(gunzipSync(bytes));
  assertEquals(coding, null, "no other coding");
  return bytes;
}

// ---- happy ----

Deno.test("a miss makes no compressed copy: the first hit goes out identity, the next br", async () => {
  await using t = await setup();
  const miss = await t.get("br");
  assertEquals(miss.headers.get("x-cachely-cache"), "MISS");
  assertEquals(miss.headers.get("content-encoding"), null);
  assertEquals(miss.headers.get("vary")?.toLowerCase(), "accept-encoding, available-dictionary");
  assertEquals(await bytesOf(miss), t.body);
  const stored = t.fx.edge.cache.lru.bytes;
  await encodingsSettled();
  assertEquals(t.fx.edge.cache.lru.bytes, stored, "no copy charged after the miss");
  const first = await t.get("br");
  assertEquals(first.headers.get("x-cachely-cache"), "HIT");
  assertEquals(first.headers.get("content-encoding"), null);
  assertEquals(await bytesOf(first), t.body);
  await encodingsSettled();
  assert(t.fx.edge.cache.lru.bytes > stored, "the first hit made the copies");
  const second = await t.get("br");
  assertEquals(second.headers.get("content-encoding"), "br");
  assertEquals(decode("br", await bytesOf(second)), t.body);
});

Deno.test("a cached API answer is served br and gzip, each decoding to the identity bytes", async () => {
  await using t = await setup();
  await filled(t);
  // hits 1..3 of each: the constructor, then the template and its clones
  for (const [ae, coding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], [null, null]]) {
    for (let i = 0; i < 3; i++) {
      const r = await t.get(ae);
      assertEquals(r.status, 200);
      assertEquals(r.headers.get("x-cachely-cache"), "HIT");
      assertEquals(r.headers.get("content-encoding"), coding, `${ae} hit ${i}`);
      // an API answer may also come as a dictionary delta (edge/cache/dictionaries.ts)
      assertEquals(r.headers.get("vary")?.toLowerCase(), "accept-encoding, available-dictionary");
      const bytes = await bytesOf(r);
      if (coding !== null) assert(bytes.byteLength < t.body.byteLength / 3, `${coding} smaller`);
      assertEquals(decode(coding, bytes), t.body, `${ae} hit ${i}`);
    }
  }
  assertEquals(t.up.count("/entries"), 1);
});

Deno.test("each coding carries an ETag of its own, and If-None-Match answers 304 for it", async () => {
  await using t = await setup();
  await filled(t);
  const tags = new Map<string | null, string | null>();
  for (const ae of ["br", "gzip", null]) {
    const r = await t.get(ae);
    await r.arrayBuffer();
    tags.set(ae, r.headers.get("etag"));
  }
  // Deno 2.5's own server (the fake upstream) weakens the tag it compresses: W/"v1"
  const id = tags.get(null)!;
  assert(/^(?:W\/)?"v1"$/.test(id), id);
  assertEquals(tags.get("br"), id.replace('"v1"', '"v1-br"'));
  assertEquals(tags.get("gzip"), id.replace('"v1"', '"v1-gzip"'));
  const same = await t.get("br", undefined, { headers: { "if-none-match": tags.get("br")! } });
  assertEquals(same.status, 304);
  assertEquals(same.headers.get("vary")?.toLowerCase(), "accept-encoding, available-dictionary");
  // the identity tag does not name the br copy: the br body is sent
  const other = await t.get("br", undefined, { headers: { "if-none-match": id } });
  assertEquals(other.status, 200);
  assertEquals(decode("br", await bytesOf(other)), t.body);
});

Deno.test("HEAD of a compressed hit gives the copy's Content-Length", async () => {
  await using t = await setup();
  await filled(t);
  const br = await t.get("br");
  const len = (await bytesOf(br)).byteLength;
  const head = await t.get("br", undefined, { method: "HEAD" });
  assertEquals(head.headers.get("content-encoding"), "br");
  assertEquals(head.headers.get("content-length"), String(len));
});

Deno.test("q-values decide: higher q wins, q=0 refuses, identity rated above wins", async () => {
  await using t = await setup();
  await filled(t);
  const cases: [string, string | null][] = [
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["gzip;q=0.8, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["identity;q=1, br;q=0.5", null],
    ["x-gzip", "gzip"],
    ["GZIP;Q=0.9", "gzip"],
    ["deflate, zstd", null],
    ["", null],
  ];
  for (const [ae, coding] of cases) {
    const r = await t.get(ae);
    assertEquals(r.headers.get("content-encoding"), coding, ae);
    assertEquals(decode(coding, await bytesOf(r)), t.body, ae);
  }
});

// ---- error ----

Deno.test("a malformed Accept-Encoding gets the identity body, never a 500", async () => {
  await using t = await setup();
  await filled(t);
  for (const ae of ["gzip;q=2", "br;q=abc", "br;;", "gzip;level=9", "br, @@", "b r", ";q=1"]) {
    const r = await t.get(ae);
    assertEquals(r.status, 200, ae);
    assertEquals(r.headers.get("content-encoding"), null, ae);
    assertEquals(r.headers.get("vary")?.toLowerCase(), "accept-encoding, available-dictionary", ae);
    assertEquals(await bytesOf(r), t.body, ae);
  }
});

Deno.test("images and small bodies get no compressed copy", async () => {
  await using t = await setup();
  await filled(t, "/~api/png");
  await filled(t, "/~api/small");
  const png = await t.get("br, gzip", "/~api/png");
  assertEquals(png.headers.get("content-encoding"), null);
  assertEquals((await bytesOf(png)).byteLength, 4000);
  const small = await t.get("br, gzip", "/~api/small");
  assertEquals(small.headers.get("content-encoding"), null);
  await small.arrayBuffer();
});

Deno.test("the memory bound counts every coding's copy", async () => {
  await using t = await setup();
  await (await t.get(null)).arrayBuffer();
  await (await t.get(null)).arrayBuffer(); // the first hit queues the copies
  const before = t.fx.edge.cache.lru.bytes;
  await encodingsSettled();
  const br = (await bytesOf(await t.get("br"))).byteLength;
  const gz = (await bytesOf(await t.get("gzip"))).byteLength;
  assert(t.fx.edge.cache.lru.bytes >= before + br + gz, `${before} + ${br} + ${gz}`);
});

Deno.test("a Range on a compressible asset is cut from the identity body", async () => {
  await using t = await imageHostFixture();
  const path = "/image/upload/v1/logo_4000b.svg";
  const whole = await bytesOf(await t.fx.request(path));
  await bytesOf(await t.fx.request(path)); // the first hit queues the copies
  await encodingsSettled();
  const full = await t.fx.request(path, { headers: { "accept-encoding": "br" } });
  assertEquals(full.headers.get("content-encoding"), "br");
  assertEquals(decode("br", await bytesOf(full)), whole);
  const part = await t.fx.request(path, {
    headers: { "accept-encoding": "br, gzip", range: "bytes=100-199" },
  });
  assertEquals(part.status, 206);
  assertEquals(part.headers.get("content-encoding"), null);
  assertEquals(part.headers.get("content-range"), "bytes 100-199/4000");
  assertEquals(await bytesOf(part), whole.subarray(100, 200));
});

Deno.test("a site page through the preview host is served br from its stored copy", async () => {
  const site = startUpstream();
  const page = `<!doctype html><html><body>${
    "<p>Hello from the site</p>\n".repeat(100)
  }</body></html>`;
  site.route("/page", () => new Response(page, { headers: { "content-type": "text/html" } }));
  const fx = await edgeFixture(null, {
    snapshot: { website: { origin: site.url, siteProxy: true } },
  });
  try {
    const preview = { surface: "preview" as const, slug: "acme" };
    await (await fx.request("/page", {}, preview)).arrayBuffer();
    await (await fx.request("/page", {}, preview)).arrayBuffer(); // queues the copies
    await encodingsSettled();
    const r = await fx.request("/page", { headers: { "accept-encoding": "br" } }, preview);
    assertEquals(r.headers.get("x-cachely-cache"), "HIT");
    assertEquals(r.headers.get("content-encoding"), "br");
    assertEquals(r.headers.get("vary")?.toLowerCase(), "accept-encoding");
    assertEquals(new TextDecoder().decode(decode("br", await bytesOf(r))), page);
  } finally {
    fx.close();
    await site.close();
  }
});
