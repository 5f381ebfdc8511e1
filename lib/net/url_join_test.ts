import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { BadPathError, checkPath, joinUpstream } from "./url_join.ts";

Deno.test("joinUpstream() appends path and query under the base path", () => {
  assertEquals(
    joinUpstream("https://api.example.com/v1_1/demo", "/resources/image", "max=10").href,
    "https://api.example.com/v1_1/demo/resources/image?max=10",
  );
  assertEquals(
    joinUpstream("https://cdn.example.com", "/a/@b/c%20d", "").href,
    "https://cdn.example.com/a/@b/c%20d",
  );
});

Deno.test("checkPath() refuses dot segments, encoded separators, backslashes and controls", () => {
  const bad = [
    "",
    "a",
    "/a/../b",
    "/..",
    "/.",
    "/a/./b",
    "/a%2fb",
    "/a%2Fb",
    "/%2e%2e/x",
    "/a%5cb",
    "/a\\b",
    "/a\r\nb",
    "/a b",
    "/a%00",
    "//host/x",
    "/a//b",
  ];
  for (const p of bad) assertThrows(() => checkPath(p), p);
  for (const p of ["/", "/a", "/a.b", "/.well-known/x", "/a/..b", "/a/b..", "/%20x"]) {
    assertEquals(checkPath(p), p);
  }
  const e = assertThrows(() => joinUpstream("https://x.example/base", "/..", ""));
  assertEquals(e instanceof BadPathError, true);
});
