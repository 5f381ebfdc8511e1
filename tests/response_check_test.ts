/**
 * Response validation (lib/http/response_check.ts): with VALIDATE_API_RESPONSES on, a route
 * whose handler answers a body its declared `response` schema refuses is a 500
 * `response_schema_mismatch`, logged with the route and the issue paths but never the values;
 * with it off the body passes through. Errors, 204 and non-JSON answers are not checked.
 */
import { Hono } from "hono";
import { z } from "zod";
import { assert, assertEquals } from "./assert.ts";
import { testConfig } from "./harness.ts";
import { mountRoutes } from "../lib/http/mount.ts";
import { access, Routes } from "../lib/http/route.ts";
import type { AppEnv } from "../lib/http/env.ts";
import type { Services } from "../lib/services.ts";
import { errorResponse } from "../routes/api/mod.ts";
import { notFound } from "../lib/errors.ts";

const itemSchema = z.object({ id: z.number(), name: z.string() });

function appWith(validate: boolean) {
  const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
  const log = {
    debug() {},
    info() {},
    warn() {},
    error: (msg: string, fields?: Record<string, unknown>) => logged.push({ msg, fields }),
  };
  const config = testConfig({ VALIDATE_API_RESPONSES: validate ? "true" : "false" });
  const routes = new Routes("/things")
    .get("/wrong", { access: access.public, summary: "Wrong", response: itemSchema }, (c) =>
      // id is a string and the value is something a log must never carry
      c.json({ id: "secret-value", name: "x" }))
    .get(
      "/right",
      { access: access.public, summary: "Right", response: itemSchema },
      (c) => c.json({ id: 1, name: "x" }),
    )
    .get("/missing", { access: access.public, summary: "Missing", response: itemSchema }, () => {
      throw notFound("Thing");
    })
    .get(
      "/text",
      { access: access.public, summary: "Text", response: itemSchema },
      (c) => c.text("not json"),
    )
    .delete("/gone", {
      access: access.public,
      summary: "Gone",
      ok: 204,
      response: itemSchema,
    }, (c) => c.body(null, 204));
  const api = new Hono<AppEnv>();
  api.use("*", async (c, next) => {
    c.set("services", { config, log } as unknown as Services);
    await next();
  });
  mountRoutes(api, routes.list);
  api.onError((err) => errorResponse(err));
  return { api, logged };
}

Deno.test("a body that violates the declared response schema is a 500 when validation is on", async () => {
  const { api, logged } = appWith(true);
  const res = await api.request("/things/wrong");
  assertEquals(res.status, 500);
  const body = await res.json();
  assertEquals(body.error.code, "response_schema_mismatch");
  assertEquals(body.error.details, { paths: ["id (invalid_type)"] });
  assertEquals(logged.length, 1);
  assertEquals(logged[0].fields, { route: "GET /things/wrong", paths: ["id (invalid_type)"] });
  assert(!JSON.stringify(logged).includes("secret-value"), "the value is never logged");
  assert(!JSON.stringify(body).includes("secret-value"), "nor answered");
});

Deno.test("with validation off the same body passes through unchecked", async () => {
  const { api, logged } = appWith(false);
  const res = await api.request("/things/wrong");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { id: "secret-value", name: "x" });
  assertEquals(logged, []);
});

Deno.test("conforming bodies, errors, 204 and non-JSON answers pass with validation on", async () => {
  const { api, logged } = appWith(true);
  const right = await api.request("/things/right");
  assertEquals([right.status, await right.json()], [200, { id: 1, name: "x" }]);
  const missing = await api.request("/things/missing");
  assertEquals([missing.status, (await missing.json()).error.code], [404, "not_found"]);
  const text = await api.request("/things/text");
  assertEquals([text.status, await text.text()], [200, "not json"]);
  const gone = await api.request("/things/gone", { method: "DELETE" });
  assertEquals(gone.status, 204);
  assertEquals(logged, []);
});

Deno.test("VALIDATE_API_RESPONSES is off by default", () => {
  assertEquals(testConfig({ VALIDATE_API_RESPONSES: "" }).validateApiResponses, false);
});
