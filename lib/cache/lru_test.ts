import { assertEquals } from "../../tests/assert.ts";
import { ByteLru, LruEntry } from "./lru.ts";

const e = (size: number) => new LruEntry(size);

Deno.test("ByteLru evicts least recently used entries to stay under its byte bound", () => {
  const lru = new ByteLru<LruEntry>(100);
  lru.set("a", e(40));
  lru.set("b", e(40));
  lru.get("a"); // a is now the most recent
  lru.set("c", e(40));
  assertEquals([...lru.keys()], ["a", "c"]);
  assertEquals(lru.bytes, 80);
});

Deno.test("ByteLru refuses an entry larger than the bound and replaces keys in place", () => {
  const lru = new ByteLru<LruEntry>(100);
  assertEquals(lru.set("big", e(101)), false);
  lru.set("a", e(10));
  lru.set("a", e(30));
  assertEquals(lru.bytes, 30);
  assertEquals(lru.count, 1);
  lru.delete("a");
  assertEquals(lru.bytes, 0);
});

Deno.test("ByteLru bounds entries as well as bytes when maxEntries is set", () => {
  const evicted: string[] = [];
  const lru = new ByteLru<LruEntry>(1000, (k) => evicted.push(k), 2);
  lru.set("a", e(1));
  lru.set("b", e(1));
  lru.get("a");
  lru.set("c", e(1));
  assertEquals([...lru.keys()], ["a", "c"]);
  assertEquals(evicted, ["b"]);
});

Deno.test("ByteLru agrees with a reference model over 20,000 random operations", () => {
  // Reference: an array ordered least → most recent, with sizes.
  let seed = 42;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const evicted: string[] = [];
  const lru = new ByteLru<LruEntry>(500, (k) => evicted.push(k));
  let model: { key: string; size: number }[] = [];
  const modelEvicted: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const key = `k${rand(40)}`;
    const op = rand(10);
    if (op < 5) {
      const got = lru.get(key);
      const at = model.findIndex((m) => m.key === key);
      assertEquals(got?.size, at < 0 ? undefined : model[at].size);
      if (at >= 0) model.push(...model.splice(at, 1));
    } else if (op < 9) {
      const size = 1 + rand(120);
      lru.set(key, e(size));
      model = model.filter((m) => m.key !== key);
      let used = model.reduce((n, m) => n + m.size, 0);
      while (used + size > 500 && model.length > 0) {
        const [old] = model.splice(0, 1);
        modelEvicted.push(old.key);
        used -= old.size;
      }
      model.push({ key, size });
    } else {
      assertEquals(lru.delete(key), model.some((m) => m.key === key));
      model = model.filter((m) => m.key !== key);
    }
    assertEquals(lru.count, model.length);
  }
  assertEquals([...lru.keys()], model.map((m) => m.key));
  assertEquals(lru.bytes, model.reduce((n, m) => n + m.size, 0));
  assertEquals(evicted, modelEvicted);
});

Deno.test("ByteLru moves an entry set under a second key, and clear() unlinks every entry", () => {
  const dropped: LruEntry[] = [];
  const lru = new ByteLru<LruEntry>(100, undefined, Infinity, (v) => dropped.push(v));
  const a = e(10);
  lru.set("k1", a);
  lru.set("k2", a);
  assertEquals([[...lru.keys()], lru.bytes, a.lruKey, dropped], [["k2"], 10, "k2", [a]]);
  const b = e(10);
  lru.set("k3", b);
  lru.clear();
  assertEquals([a.lruKey, a.lruPrev, a.lruNext, b.lruKey, b.lruNext], [
    null,
    null,
    null,
    null,
    null,
  ]);
  lru.set("k1", b); // a cleared entry can be stored again
  assertEquals([[...lru.keys()], lru.count], [["k1"], 1]);
});
