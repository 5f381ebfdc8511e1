/**
 * Response validation: with VALIDATE_API_RESPONSES on (the test harness; off by default in
 * production, docs/decisions.md "Response validation"), a declared route's JSON success body
 * is checked against its `response` schema (lib/http/route.ts). A mismatch is logged with the
 * route and the issue paths (never the values, which may be user data) and answered 500
 * `response_schema_mismatch`, so every test that calls a route also checks its declaration.
 * Error, 204 and non-JSON (streamed, CSV, HTML) responses are not checked.
 */
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env.ts";
import type { DeclaredRoute } from "./route.ts";
import { ApiError } from "../errors.ts";

/** `tenants.0.role (invalid_value)`: where and what kind, without the value. */
export function issuePaths(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.map(String).join(".") || "(body)"} (${i.code})`);
}

function isCheckedSuccess(res: Response): boolean {
  if (res.status < 200 || res.status >= 300 || res.status === 204) return false;
  return (res.headers.get("content-type") ?? "").startsWith("application/json");
}

export function responseCheck(
  route: DeclaredRoute & { response: z.ZodType },
): MiddlewareHandler<AppEnv> {
  const name = `${route.method} ${route.path}`;
  return async (c, next) => {
    await next();
    const s = c.get("services");
    if (!s?.config.validateApiResponses || !isCheckedSuccess(c.res)) return;
    let body: unknown;
    try {
      body = await c.res.clone().json();
    } catch {
      body = undefined; // not JSON despite the header: reported as a mismatch below
    }
    const r = route.response.safeParse(body);
    if (r.success) return;
    const paths = issuePaths(r.error);
    s.log.error("response schema mismatch", { route: name, paths });
    c.res = undefined; // Hono keeps the handler's headers otherwise
    c.res = new ApiError(
      500,
      "response_schema_mismatch",
      `Response does not match its declared schema: ${name}`,
      { paths },
    ).toResponse();
  };
}
