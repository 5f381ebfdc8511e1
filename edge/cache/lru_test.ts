import { assertEquals } from "../../tests/assert.ts";
import { ByteLru } from "./lru.ts";

const e = (size: number) => ({ size });

Deno.test("ByteLru evicts least recently used entries to stay under its byte bound", () => {
  const lru = new ByteLru<{ size: number }>(100);
  lru.set("a", e(40));
  lru.set("b", e(40));
  lru.get("a"); // a is now the most recent
  lru.set("c", e(40));
  assertEquals([...lru.keys()], ["a", "c"]);
  assertEquals(lru.bytes, 80);
});

Deno.test("ByteLru refuses an entry larger than the bound and replaces keys in place", () => {
  const lru = new ByteLru<{ size: number }>(100);
  assertEquals(lru.set("big", e(101)), false);
  lru.set("a", e(10));
  lru.set("a", e(30));
  assertEquals(lru.bytes, 30);
  assertEquals(lru.count, 1);
  lru.delete("a");
  assertEquals(lru.bytes, 0);
});
