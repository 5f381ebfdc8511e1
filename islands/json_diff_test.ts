import { assertEquals } from "../tests/assert.ts";
import { changedPaths } from "./json_diff.ts";

Deno.test("changedPaths() names the changed leaves, array items by index", () => {
  const a = { title: "Hi", items: [{ t: "a" }, { t: "b" }], n: 1 };
  const b = { title: "Hello", items: [{ t: "a" }, { t: "B" }], n: 1 };
  assertEquals([...changedPaths(a, b)].sort(), ["items.1.t", "title"]);
  assertEquals([...changedPaths(a, a)], []);
  assertEquals([...changedPaths({ x: 1 }, { x: 1, y: 2 })], ["y"]);
});
