// deno-lint-ignore-file no-explicit-any -- the document is read loosely
/** GET /api/openapi.json: OpenAPI 3.1 from the declarations, every SPEC endpoint with its statuses. */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest } from "./harness.ts";
import { ERROR_CODES } from "../lib/errors.ts";

const spec = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/spec_endpoints.json", import.meta.url)),
) as { endpoints: [string, string][] };

const template = (p: string) => p.replace(/\{[^}]+\}/g, ":p");

dbTest(
  "GET /api/openapi.json lists every SPEC endpoint with its statuses and the error shape",
  async (app) => {
    const r = await new Client(app).get("/api/openapi.json");
    assertEquals(r.status, 200);
    const doc = r.body as any;
    assertEquals(doc.openapi, "3.1.0");
    assertEquals(doc.components.schemas.Error.required, ["error"]);
    // Error codes are a closed list, shown with their meanings.
    const code = doc.components.schemas.Error.properties.error.properties.code;
    assertEquals(code.enum, Object.keys(ERROR_CODES));
    for (const c of ["bad_request", "unknown_tenant", "unavailable"]) {
      assert(code.description.includes(`\`${c}\`: `), `${c} explained`);
    }
    const ops = new Map<string, any>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        ops.set(`${method.toUpperCase()} ${template(path)}`, op);
      }
    }
    for (const [method, path] of spec.endpoints) {
      const op = ops.get(`${method} ${path}`);
      assert(op, `${method} ${path} is in the document`);
      const statuses = Object.keys(op.responses).map(Number);
      assert(statuses.some((s) => s < 300), `${method} ${path} has a success status`);
      for (const s of statuses.filter((s) => s >= 400)) {
        assertEquals(
          op.responses[s].content["application/json"].schema.$ref,
          "#/components/schemas/Error",
          `${method} ${path} ${s}`,
        );
      }
    }
    const invite = ops.get("POST /api/tenants/:p/members/invite");
    assertEquals(Object.keys(invite.responses), ["200", "400", "401", "403", "404", "500"]);
    assertEquals(invite.requestBody.content["application/json"].schema.required, ["email", "role"]);
    assertEquals(invite["x-access"], { kind: "tenant", role: "admin" });
    // The success body is the route's declared response schema, the summary its own line.
    const domains = ops.get("GET /api/tenants/:p/domains");
    assertEquals(
      domains.summary,
      "Lists the tenant's custom domains with their verification status",
    );
    const listed = domains.responses["200"].content["application/json"].schema;
    assertEquals(listed.required, ["domains"]);
    assertEquals(listed.properties.domains.items.properties.status.enum, [
      "pending",
      "active",
      "failed",
      "suspended",
    ]);
    // A domain is named in the body or the query: both are declared, the body optional.
    for (const key of ["DELETE /api/tenants/:p/domains", "POST /api/tenants/:p/domains/verify"]) {
      const op = ops.get(key);
      assertEquals(op.requestBody.required, false, key);
      assertEquals(Object.keys(op.requestBody.content["application/json"].schema.properties), [
        "hostname",
        "id",
      ]);
      assertEquals(
        op.parameters.filter((p: { in: string }) => p.in === "query").map((p: { name: string }) =>
          p.name
        ),
        ["hostname", "id"],
        key,
      );
    }
    assertEquals(invite.requestBody.required, true);
    const events = ops.get("POST /api/ai-experiments/events");
    assertEquals(events.security, []);
    assert(events.responses["429"], "the event rate limit is documented");
  },
);

dbTest("/api-reference renders the document as a page", async (app) => {
  const r = await new Client(app).get("/api-reference");
  assertEquals(r.status, 200);
  assert(r.text.includes("POST /api/tenants/{slug}/members/invite"), "an operation is listed");
  assert(r.text.includes("/api/openapi.json"), "links the machine-readable document");
});
