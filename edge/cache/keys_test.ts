import { assertEquals, assertNotEquals } from "../../tests/assert.ts";
import { apiKey, transformKey } from "./keys.ts";
import { normaliseQuery } from "../../lib/cache/query.ts";

Deno.test("normaliseQuery() sorts, drops tracking and named parameters, keeps repeats in order", () => {
  assertEquals(normaliseQuery("b=2&a=1&utm_source=x&fbclid=y", []), "a=1&b=2");
  assertEquals(normaliseQuery("tag=z&tag=a&token=s", ["token"]), "tag=z&tag=a");
  assertEquals(normaliseQuery("", []), "");
  assertEquals(normaliseQuery("q=a%20b&q2=a+b", []), "q=a+b&q2=a+b");
});

Deno.test("keys differ by version, host, path, query and profile regenerate version", () => {
  const k = apiKey(1, 1, "http://a", "/p", "x=1");
  assertNotEquals(k, apiKey(1, 2, "http://a", "/p", "x=1"));
  assertNotEquals(k, apiKey(1, 1, "http://b", "/p", "x=1"));
  assertNotEquals(k, apiKey(2, 1, "http://a", "/p", "x=1"));
  assertNotEquals(transformKey(k, "formal", 0), transformKey(k, "formal", 1));
  assertNotEquals(transformKey(k, "formal", 0), transformKey(k, "casual", 0));
});
