/**
 * Every API route is declared (lib/http/route.ts) and its declared access matches SPEC
 * "Authentication" and the role matrix (tests/route_matrix.ts): a route added without a
 * declaration, or with the wrong access, fails here.
 */
import { assert, assertEquals } from "./assert.ts";
import { apiDeclarations, apiRoutes } from "../routes/api/mod.ts";
import type { Access, DeclaredRoute } from "../lib/http/route.ts";
import { AREAS } from "./route_matrix.ts";

const spec = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/spec_endpoints.json", import.meta.url)),
) as { endpoints: [string, string][] };

/** `/tenants/:slug/x` and SPEC's `/tenants/{slug}/x` compare equal. */
const norm = (path: string) => path.replace(/:\w+(\{[^}]*\})?/g, ":p").replace(/\/$/, "");
const key = (method: string, path: string) => `${method} ${norm(path)}`;

const declared = apiDeclarations();
const declaredKeys = new Set(declared.map((r) => key(r.method, `/api${r.path}`)));

Deno.test("every route the API answers is declared, and nothing is declared twice", () => {
  const app = apiRoutes();
  const registered = new Set(
    app.routes.filter((r) => r.method !== "ALL").map((r) => key(r.method, `/api${r.path}`)),
  );
  assertEquals([...registered].filter((k) => !declaredKeys.has(k)), [], "undeclared routes");
  assertEquals(declaredKeys.size, declared.length, "a method and path declared twice");
});

Deno.test("every SPEC endpoint is declared", () => {
  const missing = spec.endpoints.map(([m, p]) => key(m, p)).filter((k) => !declaredKeys.has(k));
  assertEquals(missing, []);
});

/** The access SPEC "Authentication" (and docs/decisions.md for the auth pages) gives a path. */
function expectedAccess(r: DeclaredRoute): Access {
  const p = r.path;
  if (p.startsWith("/admin/")) return { kind: "masterAdmin" };
  if (p === "/ai-transform/execute") return { kind: "machineKey", key: "aiTransform" };
  if (p === "/usage/ingest" || p === "/usage/check") return { kind: "machineKey", key: "ingest" };
  if (p === "/tenants/:slug/webhook") return { kind: "webhookSecret", carrier: "query" };
  if (p.startsWith("/webhooks/cache-refresh/")) return { kind: "webhookSecret", carrier: "path" };
  if (p === "/billing/webhook") return { kind: "webhookSecret", carrier: "signature" };
  if (p === "/ai-experiments/events" || p.startsWith("/demos/")) return { kind: "public" };
  if (p === "/openapi.json") return { kind: "public" }; // the API reference (docs/api.md)
  // Where sessions are issued (not in SPEC): sign-up, log-in, log-out, password reset.
  if (/^\/auth\/(signup|login|logout|forgot-password|reset-password)$/.test(p)) {
    return { kind: "public" };
  }
  const tenant = /^\/tenants\/:slug(\/.*)?$/.exec(p);
  if (tenant) {
    const rest = tenant[1] ?? "";
    const row = Object.values(AREAS).flat().find((a) =>
      a.method === r.method && a.path.split("?")[0] === rest
    );
    return { kind: "tenant", role: row?.min ?? declaredRole(r) };
  }
  return { kind: "session" };
}

/** Tenant routes outside the matrix: any role, but it must be a tenant access. */
function declaredRole(r: DeclaredRoute) {
  return r.access.kind === "tenant" ? r.access.role : "viewer";
}

Deno.test("every declared access matches SPEC Authentication and the role matrix", () => {
  const wrong = declared
    .filter((r) => JSON.stringify(r.access) !== JSON.stringify(expectedAccess(r)))
    .map((r) =>
      `${r.method} ${r.path}: ${JSON.stringify(r.access)} ≠ ${JSON.stringify(expectedAccess(r))}`
    );
  assertEquals(wrong, []);
});

Deno.test("every route of the role matrix is declared with its tenant role", () => {
  for (const rows of Object.values(AREAS)) {
    for (const a of rows) {
      const path = `/tenants/:slug${a.path.split("?")[0]}`;
      const d = declared.find((r) => r.method === a.method && r.path === path);
      assert(d, `${a.method} ${path} is declared`);
      assertEquals(d.access, { kind: "tenant", role: a.min }, `${a.method} ${path}`);
    }
  }
});

/**
 * A placeholder summary: the method and path (`GET /tenants/:slug/domains`), a `${BASE}`
 * template left unexpanded, or a word or two (`rules`, `management`) instead of what the
 * operation does. The summary is the operation's title in the OpenAPI reference.
 */
function isPlaceholderSummary(summary: string): boolean {
  return /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) /.test(summary) || summary.includes("${") ||
    summary.trim().split(/\s+/).length < 3;
}

/** A route answering JSON on success: everything but 204s and redirects. */
const answersJson = (r: DeclaredRoute) => r.ok !== 204 && !(r.ok && r.ok >= 300 && r.ok < 400);

Deno.test("every JSON route declares its response schema and a real summary", () => {
  const gaps = declared.flatMap((r) => {
    const name = `${r.method} ${r.path}`;
    const problems = [
      ...(answersJson(r) && !r.response ? ["no response schema"] : []),
      ...(isPlaceholderSummary(r.summary) ? [`placeholder summary "${r.summary}"`] : []),
    ];
    return problems.length ? [`${name}: ${problems.join(", ")}`] : [];
  });
  assertEquals(gaps, []);
});

Deno.test("placeholder summaries are recognised", () => {
  for (const s of ["GET /tenants/:slug/domains", "POST ${BASE}/rules", "POST EVENTS", "rules"]) {
    assert(isPlaceholderSummary(s), s);
  }
  assert(!isPlaceholderSummary("Lists the tenant's custom domains"));
});
