/** Unknown API paths and methods answer the one JSON error shape (404, 405 with Allow). */
import { assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

dbTest("unknown /api paths are a JSON 404 for anyone", async (app) => {
  const owner = await signUp(app);
  for (const c of [new Client(app), owner]) {
    for (const path of ["/api/nope", "/api/tenants/x/nope/deeper", "/api", "/api/"]) {
      const r = await c.get(path);
      assertEquals(r.status, 404, path);
      assertEquals(r.headers.get("content-type"), "application/json");
      assertEquals(r.body.error.code, "not_found");
    }
  }
});

dbTest(
  "a known /api path with another method is a JSON 405 naming the allowed ones",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const cases: Array<[string, string, string[]]> = [
      ["DELETE", "/api/auth/login", ["POST"]],
      ["PATCH", `/api/tenants/${slug}/members`, ["GET", "HEAD"]],
      ["PUT", "/api/ai-experiments/events", ["OPTIONS", "POST"]],
    ];
    for (const [method, path, allow] of cases) {
      const r = await owner.request(method, path, method === "GET" ? undefined : {});
      assertEquals(r.status, 405, `${method} ${path}`);
      assertEquals(r.body.error.code, "method_not_allowed");
      assertEquals(r.body.error.details.allow, allow);
      assertEquals(r.headers.get("allow"), allow.join(", "));
    }
  },
);
