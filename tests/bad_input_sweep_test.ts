/**
 * Bad input across every declared route that takes a JSON body: a body whose key and value
 * hold U+0000 is refused (400, or the 401/403/404 the route's access or resource gives
 * first), never a 500. Callers are a master admin who owns the tenant, with the machine keys.
 */
import { assert } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";
import { apiDeclarations } from "../routes/api/mod.ts";

const KEY = "k".repeat(24);

dbTest("a NUL-laden body never makes any declared route answer 500", async (app) => {
  const root = await signUp(app, "root@example.com");
  const slug = await createTenant(root);
  const outcomes: string[] = [];
  let refused400 = 0;
  for (const r of apiDeclarations().filter((d) => d.body)) {
    const path = "/api" +
      r.path.replace(
        /:(\w+)(\{[^}]*\})?/g,
        (_, name: string) => name === "slug" ? slug : name === "userId" ? root.userId : "1",
      );
    const res = await root.request(r.method, path, { "k\u0000": "v\u0000" }, {
      "x-ingest-key": KEY,
      "x-ai-transform-key": KEY,
    });
    outcomes.push(`${res.status} ${r.method} ${r.path}`);
    assert(res.status < 500, `${r.method} ${r.path}: ${res.status} ${res.text}`);
    assert(
      [400, 401, 403, 404, 409, 413].includes(res.status),
      `${r.method} ${r.path}: ${res.status}`,
    );
    if (res.status === 400) refused400++;
  }
  assert(refused400 >= outcomes.length * 0.8, outcomes.join("\n"));
}, { env: { ADMIN_EMAILS: "root@example.com", INGEST_KEY: KEY, AI_TRANSFORM_KEY: KEY } });
