import { assert, assertEquals } from "../../tests/assert.ts";
import { EdgeCache } from "./store.ts";
import { cachedObject } from "./store.ts";
import { COMPACT_AFTER_RELEASES, MAX_FREE_SLABS, PACK_MAX_BYTES, SLAB_BYTES } from "./slabs.ts";

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
  c.templates.admit(o, "x", () => new Response(o.body), o.bodyLength);
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
  c.templates.admit(kept, "x", () => new Response(kept.body), kept.bodyLength);
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
  // 512 bodies per slab, 2,000 live: 4 slabs hold them, and each slab the oldest evictions
  // empty is the next one filled. Moving the last quarter of each oldest slab into the
  // newest one (which those evictions took a moment later) copied bodies; without reuse
  // every body stored took new slab space (20 slabs), freed only when V8 collected it.
  assertEquals(c.slabs.allocated, Math.ceil(capacity / (SLAB_BYTES / 2048)) + 1);
  const last = c.peek(`k${total - 1}`)!.body;
  assertEquals([last.byteLength, last[0]], [2048, (total - 1) % 250]);
});

Deno.test("churn through a cache of bound B never allocates slabs past B plus two slabs", () => {
  // the live bodies, the oldest slab's dead part and the newest slab's empty part
  for (const entries of [600, 2000, 5000]) {
    const bound = entries * (2048 + 512 + 40);
    const c = cache(bound);
    let peakHeld = 0;
    for (let i = 0; i < 20 * entries; i++) {
      c.store(`k${i}`, obj(2048, i % 250));
      peakHeld = Math.max(peakHeld, c.slabs.held);
    }
    const slabs = c.slabs.allocated * SLAB_BYTES;
    assert(
      slabs <= bound + 2 * SLAB_BYTES,
      `${entries} entries: ${slabs} bytes of slabs, bound ${bound}`,
    );
    assert(peakHeld <= c.slabs.allocated, "what is held was allocated once");
    for (let i = 20 * entries - 100; i < 20 * entries; i++) {
      const b = c.peek(`k${i}`)!.body;
      assertEquals([b[0], b[2047]], [i % 250, i % 250], `k${i}`);
    }
  }
});

Deno.test("a cache shrunk by the memory guard keeps at most MAX_FREE_SLABS empty slabs", () => {
  const c = cache(1024 ** 3);
  for (let i = 0; i < 20 * 512; i++) c.store(`k${i}`, obj(2048, 1)); // 20 slabs
  assertEquals(c.slabs.held, 20);
  c.lru.resize(2 * 1024 * 1024); // what the guard does: the oldest go at once
  const live = Math.ceil((c.lru.count * 2048) / SLAB_BYTES) + 1;
  assert(c.slabs.held <= live + MAX_FREE_SLABS, `${c.slabs.held} slabs held`);
});

Deno.test("an evicted body whose slab was reused reads as gone, never as another body", () => {
  const c = cache(4 * (2048 + 512 + 40)); // four entries
  const perSlab = SLAB_BYTES / 2048;
  c.store("old", obj(2048, 7));
  const old = c.peek("old")!;
  for (let i = 0; i < perSlab; i++) c.store(`k${i}`, obj(2048, 9)); // "old" evicted, slab full
  assert(!old.kept);
  assertEquals([old.readable, old.body[0]], [true, 7], "read until the slab is reused");
  for (let i = 0; i < 2 * perSlab; i++) c.store(`m${i}`, obj(2048, 11)); // reuses the first slab
  assertEquals(c.slabs.allocated, 2);
  assertEquals(old.readable, false);
  let threw = false;
  try {
    void old.body;
  } catch {
    threw = true;
  }
  assert(threw, "reading a reused slab's old body throws");
});

Deno.test("a second-tier put sends the body as stored, though its slab is reused before the put", async () => {
  const name = `slabs-test-${crypto.randomUUID()}`;
  const c = new EdgeCache({ maxBytes: 1024 ** 3, clock, webCacheName: name });
  try {
    const perSlab = SLAB_BYTES / 2048;
    const memoryOnly = (key: string, fill: number) => {
      const o = obj(2048, fill);
      c.slabs.pack(o);
      c.lru.set(key, o);
    };
    c.store("first", obj(2048, 3), true); // put (requested before); waits for the cache to open
    for (let i = 1; i < perSlab; i++) memoryOnly(`fill${i}`, 4); // the slab is full
    c.lru.delete("first"); // out of memory (not of the second tier)
    for (let i = 1; i < perSlab; i++) c.lru.delete(`fill${i}`); // the slab is empty
    memoryOnly("next", 5); // the next body goes where "first" was
    await c.flush();
    const got = await c.lookupSecondTier("first");
    assert(got !== undefined);
    assertEquals([got.body.byteLength, got.body[0], got.body[2047]], [2048, 3, 3]);
  } finally {
    c.close();
    await caches.delete(name);
  }
});
