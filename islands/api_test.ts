import { assertEquals } from "../tests/assert.ts";
import { pick } from "./api.ts";

Deno.test("pick() shows the first present value among dotted paths", () => {
  const body = { headline: "Live", analysis: { verdict: "Uses Cachely" }, message: "", n: 0 };
  assertEquals(pick(body, "headline"), "Live");
  assertEquals(pick(body, ["analysis.verdict", "message"]), "Uses Cachely");
  assertEquals(
    pick({ ok: false, message: "Timed out" }, ["analysis.verdict", "message"]),
    "Timed out",
  );
  assertEquals(pick(body, ["message", "missing.deep"]), "", "empty strings and gaps are skipped");
  assertEquals(pick(body, "n"), "0", "zero is a value");
  assertEquals(pick(null, "a.b"), "");
  assertEquals(pick(body, undefined), "");
});
