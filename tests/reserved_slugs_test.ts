/**
 * Reserved slugs: `demo` (the public demo URLs' tenant host) and other product
 * words cannot be registered, and docs/decisions.md lists exactly the reserved set.
 */
import { assertEquals, assertStringIncludes } from "./assert.ts";
import { dbTest, signUp } from "./harness.ts";
import { RESERVED_SLUGS } from "../lib/tenants/slug.ts";
import { DEMO_TENANT_SLUG } from "../lib/demos/mod.ts";

dbTest("demo and other product words are reserved slugs", async (app) => {
  const user = await signUp(app);
  for (const slug of [DEMO_TENANT_SLUG, "pricing", "sandbox", "security"]) {
    const r = await user.post("/api/tenants", {
      slug,
      cms: "generic",
      originUrl: "https://assets.example.com",
    });
    assertEquals(r.status, 400, `${slug}: ${r.text}`);
    assertStringIncludes(r.body.error.message, "reserved");
  }
});

Deno.test("docs/decisions.md lists exactly the reserved slugs", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/decisions.md", import.meta.url));
  const section = doc.split("### Reserved slugs")[1]?.split("\n#")[0] ?? "";
  const listed = [...section.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]).sort();
  assertEquals(listed, [...RESERVED_SLUGS].sort());
});
