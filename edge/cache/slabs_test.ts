import { assert, assertEquals } from "../../tests/assert.ts";
import { EdgeCache } from "./store.ts";
import { cachedObject } from "./store.ts";
import { COMPACT_AFTER_RELEASES, PACK_MAX_BYTES, SLAB_BYTES } from "./slabs.ts";
import { hitTemplates } from "./hit_templates.ts";

const clock = { now: () => 0 };
const body = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const obj = (n: number, fill: number) =>
  cachedObject(200, [["content-type", "application/json"]], body(n, fill), 0, 60_000);
const cache = (maxBytes = 1024 ** 3) => new EdgeCache({ maxBytes, clock, webCacheName: null });

/** `n` bodies stored and deleted again (each delete is a release). */
function releases(c: EdgeCache, n: number): void {
  for (let i = 0; i < n; i++) {
    c.store(`churn${i}`, obj(64, 0));
    void c.delete(`churn${i}`);
  }
}

Deno.test("small cached bodies share one slab; a large body keeps its own buffer", () => {
  const c = cache();
  for (let i = 0; i < 3; i++) c.store(`k${i}`, obj(2048, i + 1));
  c.store("large", obj(PACK_MAX_BYTES + 1, 9));
  const [a, b, d] = ["k0", "k1", "k2"].map((k) => c.peek(k)!.body);
  assert(a.buffer === b.buffer && b.buffer === d.buffer, "one shared buffer");
  assertEquals(a.buffer.byteLength, SLAB_BYTES);
  assertEquals([a.byteLength, a[0], a[2047], b[0], d[2047]], [2048, 1, 1, 2, 3]);
  assertEquals(c.peek("large")!.body.buffer.byteLength, PACK_MAX_BYTES + 1);
  assertEquals(c.slabs.allocated, 1);
});

Deno.test("a slab left a quarter live by evictions moves its remaining bodies on", () => {
  const c = cache();
  const perSlab = SLAB_BYTES / 2048;
  for (let i = 0; i < perSlab; i++) c.store(`a${i}`, obj(2048, i % 250));
  c.store("next", obj(2048, 251)); // the first slab is full: a second one starts
  const first = c.peek("a0")!.body.buffer;
  assertEquals(c.slabs.allocated, 2);
  // keep every 8th entry of the first slab, drop the rest
  for (let i = 0; i < perSlab; i++) if (i % 8 !== 0) void c.delete(`a${i}`);
  assertEquals(c.peek("a0")!.body.buffer, first, "sparse, but not for long yet");
  releases(c, COMPACT_AFTER_RELEASES);
  for (let i = 0; i < perSlab; i += 8) {
    const b = c.peek(`a${i}`)!.body;
    assert(b.buffer !== first, `a${i} still in the first slab`);
    assertEquals([b.byteLength, b[0], b[2047]], [2048, i % 250, i % 250]);
  }
  assertEquals(c.peek("next")!.body[0], 251);
});

Deno.test("an evicted or replaced body no longer counts as live in its slab", () => {
  const c = cache(3 * (2048 + 512 + 40)); // room for three entries
  for (let i = 0; i < 5; i++) c.store(`k${i}`, obj(2048, i));
  assertEquals(c.lru.count, 3);
  c.store("k4", obj(2048, 44)); // replaced in place
  const s = c.peek("k4")!.slab!;
  assertEquals(s.live, 3 * 2048);
  assertEquals(c.peek("k4")!.body[0], 44);
});

Deno.test("a body in a slab is read through one view while its object has a template", () => {
  const c = cache();
  c.store("k", obj(2048, 5));
  const o = c.peek("k")!;
  assert(o.body !== o.body, "no template: a view per read (nothing kept per entry)");
  hitTemplates.admit(o, "x", () => new Response(o.body), o.bodyLength);
  assert(o.body === o.body, "a hit reads the body's length without making a view");
  assertEquals([o.body.byteLength, o.body[0]], [2048, 5]);
  c.clear();
});

Deno.test("a templated body moved to another slab is read from there", () => {
  const c = cache();
  const perSlab = SLAB_BYTES / 2048;
  for (let i = 0; i < perSlab; i++) c.store(`a${i}`, obj(2048, i % 250));
  c.store("next", obj(2048, 251));
  const kept = c.peek("a0")!;
  hitTemplates.admit(kept, "x", () => new Response(kept.body), kept.bodyLength);
  const before = kept.body.buffer;
  for (let i = 1; i < perSlab; i++) void c.delete(`a${i}`);
  releases(c, COMPACT_AFTER_RELEASES);
  assert(kept.body.buffer !== before, "the view follows the body to its new slab");
  assertEquals([kept.body.byteLength, kept.body[0], kept.body[2047]], [2048, 0, 0]);
  c.clear();
});

Deno.test("a cache at its bound evicting first in, first out copies no body between slabs", () => {
  const perEntry = 2048 + 512 + 40;
  const capacity = 2000;
  const c = cache(capacity * perEntry);
  const total = 5 * capacity; // every entry but the last 2,000 evicted, oldest first
  for (let i = 0; i < total; i++) c.store(`k${i}`, obj(2048, i % 250));
  assert(c.lru.count >= capacity && c.lru.count < total / 2, `${c.lru.count} entries kept`);
  // 512 bodies per slab: the bodies stored need 20 slabs; moving the last quarter of each
  // oldest slab into the newest one (which those evictions took a moment later) needed 25
  assertEquals(c.slabs.allocated, Math.ceil(total / (SLAB_BYTES / 2048)));
  const last = c.peek(`k${total - 1}`)!.body;
  assertEquals([last.byteLength, last[0]], [2048, (total - 1) % 250]);
});
