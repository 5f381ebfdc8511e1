/**
 * What a cached entry costs in native memory: a cached body must sit in an allocation of
 * its own length. Deno's Response.arrayBuffer() returns ~4 KB of allocation for a 2 KB
 * body, which V8 reports as 2 KB; 100,000 such entries held ~200 MB nobody counted
 * (bench/ANALYSIS.md "Misses, the header set, transformed hits"). Measured with glibc's malloc_usable_size on the body's
 * backing store (Linux with glibc only; elsewhere the tests are ignored).
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import type { CachedObject, EdgeCache } from "../edge/cache/store.ts";
import { PACK_MAX_BYTES } from "../edge/cache/slabs.ts";
import { encodingsSettled } from "../edge/cache/variants.ts";

const libc = (() => {
  try {
    return Deno.dlopen("libc.so.6", {
      malloc_usable_size: { parameters: ["pointer"], result: "usize" },
    });
  } catch {
    return null;
  }
})();

/** Bytes malloc reserved for the allocation that backs `body` (it starts at offset 0). */
function allocated(body: Uint8Array<ArrayBuffer>): number {
  assertEquals(body.byteOffset, 0);
  return Number(libc!.symbols.malloc_usable_size(Deno.UnsafePointer.of(body)));
}

function only(cache: EdgeCache): CachedObject {
  const keys = [...cache.lru.keys()];
  assertEquals(keys.length, 1);
  return cache.lru.peek(keys[0])!;
}

// Over PACK_MAX_BYTES, so each body keeps a buffer of its own (smaller ones go into slabs).
const SIZE = PACK_MAX_BYTES + 8 * 1024;
const BODIES: [string, string, Uint8Array<ArrayBuffer>][] = [
  ["application/octet-stream", "/bin", new Uint8Array(SIZE).fill(7)],
  // JSON is decoded for URL rewriting; unchanged text keeps the bytes as read
  [
    "application/json",
    "/json",
    new TextEncoder().encode(JSON.stringify({ pad: "x".repeat(SIZE - 10) })),
  ],
];

for (const [type, path, bytes] of BODIES) {
  Deno.test({
    name: `a cached ${type} body of declared length is held in an allocation of its own size`,
    ignore: libc === null,
    async fn() {
      const up = startUpstream();
      up.route(path, () => new Response(bytes, { headers: { "content-type": type } }));
      const fx = await edgeFixture(up.url);
      try {
        const res = await fx.request(`/~api${path}`);
        assertEquals(res.headers.get("x-cachely-cache"), "MISS");
        assertEquals((await res.bytes()).byteLength, bytes.byteLength);
        const body = only(fx.edge.cache).body;
        assertEquals(body.byteLength, bytes.byteLength);
        // malloc rounds up to 16 bytes; the runtime's read buffer was ~1.6× this body
        assert(allocated(body) <= body.byteLength + 32, `${allocated(body)} bytes allocated`);
      } finally {
        await encodingsSettled(); // a JSON body's compressed copies hash it off the request
        fx.close();
        await up.close();
      }
    },
  });
}

Deno.test({
  name: "a body promoted from the Web Cache tier is held in an allocation of its own size",
  ignore: libc === null,
  async fn() {
    const up = startUpstream();
    up.route(
      "/bin",
      () => new Response(BODIES[0][2], { headers: { "content-type": BODIES[0][0] } }),
    );
    const name = `edge-memory-${crypto.randomUUID()}`;
    const fx = await edgeFixture(up.url, { webCacheName: name });
    try {
      await (await fx.request("/~api/bin")).bytes();
      await (await fx.request("/~api/bin")).bytes(); // a hit: into the second tier
      await fx.edge.cache.flush();
      fx.edge.cache.lru.clear(); // memory is empty; the second tier still has the entry
      const res = await fx.request("/~api/bin");
      assertEquals(res.headers.get("x-cachely-cache"), "HIT");
      await res.bytes();
      assertEquals(up.count("/bin"), 1);
      const body = only(fx.edge.cache).body;
      assert(allocated(body) <= body.byteLength + 32, `${allocated(body)} bytes allocated`);
    } finally {
      await encodingsSettled();
      fx.close();
      await up.close();
      await caches.delete(name);
    }
  },
});
