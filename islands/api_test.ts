import { assertEquals } from "../tests/assert.ts";
import { pick, redirectTarget } from "./api.ts";

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

Deno.test("redirectTarget() fills from the answer, encoded, never from form fields", () => {
  assertEquals(redirectTarget("/dashboard/{key}", { ok: true, key: "acme" }), "/dashboard/acme");
  assertEquals(redirectTarget("/x?e={email}&p={password}", { ok: true }), "/x?e=&p=");
  assertEquals(redirectTarget("/d/{key}", { key: "a/b?c" }), "/d/a%2Fb%3Fc");
});
