import { assertEquals } from "../../tests/assert.ts";
import { DEFAULT_NEXT, safeNext } from "./next.ts";

const PUBLIC = "https://app.example";

Deno.test("safeNext() keeps local paths with their query", () => {
  assertEquals(safeNext("/dashboard/acme", PUBLIC), "/dashboard/acme");
  assertEquals(safeNext("/invites/accept?token=x", PUBLIC), "/invites/accept?token=x");
});

Deno.test("safeNext() refuses other origins, controls and non-paths", () => {
  for (
    const bad of [
      undefined,
      "",
      "dashboard",
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      // The penetration-test payload: the parser strips the tab, leaving //evil.example.
      "/\t/evil.example/c?e={email}&p={password}",
      "/\n/evil.example",
      "/\r/evil.example",
      "/\u0000/evil.example",
      "/\u0085/evil.example",
      "/" + "a".repeat(2048),
    ]
  ) {
    assertEquals(safeNext(bad, PUBLIC), DEFAULT_NEXT, JSON.stringify(bad));
  }
});
