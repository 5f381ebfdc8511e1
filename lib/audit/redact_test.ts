import { assertEquals } from "../../tests/assert.ts";
import { redact } from "./mod.ts";

Deno.test("redact() hides secret-looking keys at any depth and keeps has* flags", () => {
  assertEquals(
    redact({
      hasToken: true,
      token: "t",
      nested: { apiSecret: "s", password: "p", name: "n" },
      authorization: "Bearer x",
      slug: "acme",
    }),
    {
      hasToken: true,
      token: "[redacted]",
      nested: { apiSecret: "[redacted]", password: "[redacted]", name: "n" },
      authorization: "[redacted]",
      slug: "acme",
    },
  );
});
