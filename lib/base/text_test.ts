import { assertEquals } from "../../tests/assert.ts";
import { findBadText, NUL_MESSAGE, str, SURROGATE_MESSAGE } from "./text.ts";
import { parseWith } from "../http/validate.ts";
import { z } from "zod";
import { ApiError } from "../errors.ts";

Deno.test("str() refuses U+0000 and chains like z.string()", () => {
  const s = str().trim().min(2);
  assertEquals(s.safeParse(" ab ").data, "ab");
  assertEquals(s.safeParse("a\u0000b").error?.issues[0].message, NUL_MESSAGE);
  assertEquals(s.safeParse("a\ud800b").error?.issues[0].message, SURROGATE_MESSAGE);
  assertEquals(s.safeParse("a\udc00").error?.issues[0].message, SURROGATE_MESSAGE);
  assertEquals(s.safeParse("😀 ok").data, "😀 ok");
});

Deno.test("findBadText() names the first string or key holding NUL or a lone surrogate", () => {
  assertEquals(findBadText({ a: ["x", { b: "y\u0000" }] })?.path, "a.1.b");
  assertEquals(findBadText({ ["k\u0000"]: 1 })?.path, "k\u0000");
  assertEquals(findBadText("\u0000")?.path, "(body)");
  assertEquals(findBadText({ name: "\ud800" }), { path: "name", message: SURROGATE_MESSAGE });
  assertEquals(findBadText({ a: "fine", n: 1, z: null }), null);
});

Deno.test("parseWith() is a 400 naming the field even for z.email() and free records", () => {
  const schema = z.object({ email: z.email(), meta: z.record(z.string(), z.unknown()) });
  try {
    parseWith(schema, { email: "a@b.example", meta: { note: "x\u0000" } });
    throw new Error("accepted");
  } catch (e) {
    assertEquals((e as ApiError).status, 400);
    assertEquals((e as ApiError).message, `Invalid meta.note: ${NUL_MESSAGE}`);
  }
});
