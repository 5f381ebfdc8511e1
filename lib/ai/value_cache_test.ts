import { assertEquals, assertNotEquals } from "../../tests/assert.ts";
import { ValueCache } from "./value_cache.ts";

Deno.test("ValueCache.key() separates model, rule version and input", async () => {
  const k = await ValueCache.key("m", "rule:1:v1", "hello");
  assertEquals(k, await ValueCache.key("m", "rule:1:v1", "hello"));
  assertNotEquals(k, await ValueCache.key("m2", "rule:1:v1", "hello"));
  assertNotEquals(k, await ValueCache.key("m", "rule:1:v2", "hello"));
  assertNotEquals(k, await ValueCache.key("m", "rule:1:v1", "hello "));
  // The framing keeps ("a", "b\0c") and ("a\0b", "c") apart.
  assertNotEquals(
    await ValueCache.key("a", "b\u0000c", "x"),
    await ValueCache.key("a\u0000b", "c", "x"),
  );
});

Deno.test("ValueCache evicts the least recently used entry by count and by characters", () => {
  const c = new ValueCache(2, 1_000);
  c.set("a", "1");
  c.set("b", "2");
  assertEquals(c.get("a"), "1"); // a is now the most recent
  c.set("c", "3");
  assertEquals(c.get("b"), undefined);
  assertEquals(c.get("a"), "1");
  assertEquals(c.size, 2);
  const small = new ValueCache(100, 10);
  small.set("x", "123456");
  small.set("y", "123456");
  assertEquals(small.get("x"), undefined, "over the character bound, the oldest goes");
  assertEquals(small.get("y"), "123456");
  small.set("y", "1");
  small.set("z", "123456789");
  assertEquals(small.get("y"), "1", "replacing a value frees its characters");
});
