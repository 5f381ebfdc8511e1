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
      // Dot segments collapse after any raw check: each of these parses to //evil.example.
      "/.//evil.example",
      "/%2e%2e//evil.example",
      "/a/..//evil.example",
      "/.%2E//evil.example",
      "/a/%2e%2e/\\evil.example",
    ]
  ) {
    assertEquals(safeNext(bad, PUBLIC), DEFAULT_NEXT, JSON.stringify(bad));
  }
});
