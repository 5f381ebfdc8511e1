/**
 * The role matrix, per area: every tenant route is walked as anonymous, as a
 * signed-in outsider (owner of another tenant), and as viewer, editor, admin and
 * owner. SPEC "Authentication": 401 without a session, 404 for non-members (tenant
 * existence does not leak), 403 below the route's role, and through above it.
 * Allowed calls send an invalid body where the route takes one, so they stop at
 * validation (400) without changing anything.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { roleMatrix } from "./roles.ts";
import { AREAS, type Route } from "./route_matrix.ts";
import { atLeast, ROLES } from "../lib/base/roles.ts";

function assertErrorShape(body: unknown, label: string) {
  const e = (body as { error?: { code?: unknown; message?: unknown } })?.error;
  assert(typeof e?.code === "string" && typeof e?.message === "string", `${label}: error shape`);
}

async function walk(app: TestApp, routes: Route[]) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const users = await roleMatrix(app, owner, slug);
  await createTenant(users.outsider); // the outsider is an owner elsewhere
  const anon = new Client(app);
  const skipAllowed = (r: Route) => r.method === "DELETE" && r.path === "";

  for (const r of routes) {
    const url = `/api/tenants/${slug}${r.path}`;
    const label = `${r.method} ${url}`;
    const a = await anon.request(r.method, url, r.body);
    assertEquals(a.status, 401, `anonymous ${label}`);
    assertErrorShape(a.body, label);
    const o = await users.outsider.request(r.method, url, r.body);
    assertEquals(o.status, 404, `outsider ${label}`);
    assertErrorShape(o.body, label);
    for (const role of ROLES) {
      if (skipAllowed(r) && atLeast(role, r.min)) continue;
      const res = await users[role].request(r.method, url, r.body);
      if (atLeast(role, r.min)) {
        assert(
          ![401, 403, 404].includes(res.status),
          `${role} ${label}: ${res.status} ${res.text}`,
        );
      } else {
        assertEquals(res.status, 403, `${role} ${label}`);
        assertErrorShape(res.body, label);
      }
    }
  }
  return { owner, slug };
}

for (const [area, routes] of Object.entries(AREAS)) {
  dbTest(
    `${area}: role matrix gives 401 anonymous, 404 outsider, 403 below the role`,
    async (app) => {
      const { owner, slug } = await walk(app, routes);
      if (area === "tenants") {
        const del = await owner.delete(`/api/tenants/${slug}`);
        assertEquals(del.status, 200, "the owner may delete");
        assertEquals((await owner.get(`/api/tenants/${slug}`)).status, 404);
      }
    },
  );
}

dbTest(
  "admin routes: 401 anonymous, 403 for every tenant role, through for the master admin",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const users = await roleMatrix(app, owner, slug);
    const root = await signUp(app, "root@example.com");
    const routes: Route[] = [
      { method: "GET", path: `/api/admin/users/${users.viewer.userId}`, min: "owner" },
      {
        method: "POST",
        path: `/api/admin/users/${users.viewer.userId}/block`,
        min: "owner",
        body: {},
      },
      { method: "PATCH", path: `/api/admin/users/${users.viewer.userId}`, min: "owner", body: {} },
      {
        method: "GET",
        path: `/api/admin/users/${users.viewer.userId}/daily?period=x`,
        min: "owner",
      },
      {
        method: "POST",
        path: `/api/admin/users/${users.viewer.userId}/reset-password`,
        min: "owner",
        body: { unknown: 1 },
      },
      { method: "GET", path: "/api/admin/overview?period=x", min: "owner" },
      { method: "GET", path: "/api/admin/bandwidth-daily?from=x", min: "owner" },
      { method: "POST", path: "/api/admin/prune-logs", min: "owner", body: { retentionDays: 0 } },
      { method: "GET", path: "/api/admin/usage-aggregator-status", min: "owner" },
      { method: "GET", path: "/api/admin/cloudflare-cost?period=x", min: "owner" },
      { method: "GET", path: "/api/admin/usage-stream?limit=0", min: "owner" },
      { method: "GET", path: "/api/admin/usage-diagnostic?x=1", min: "owner" },
      { method: "GET", path: "/api/admin/logs?limit=0", min: "owner" },
      { method: "POST", path: "/api/admin/logs-test", min: "owner", body: { level: "nope" } },
      { method: "POST", path: "/api/admin/d1-init", min: "owner", body: { x: 1 } },
      { method: "POST", path: "/api/admin/migrate-kv-to-d1", min: "owner", body: { dryRun: 1 } },
      { method: "POST", path: "/api/admin/backfill-members", min: "owner", body: { x: 1 } },
      {
        method: "PATCH",
        path: `/api/admin/billing/${users.viewer.userId}`,
        min: "owner",
        body: { planCode: "gold" },
      },
    ];
    for (const r of routes) {
      assertEquals((await new Client(app).request(r.method, r.path, r.body)).status, 401);
      for (const role of ROLES) {
        assertEquals((await users[role].request(r.method, r.path, r.body)).status, 403, role);
      }
      assertEquals((await users.outsider.request(r.method, r.path, r.body)).status, 403);
      const ok = await root.request(r.method, r.path, r.body);
      assert([200, 400].includes(ok.status), `master admin ${r.path}: ${ok.status}`);
    }
  },
  { env: { ADMIN_EMAILS: "root@example.com" } },
);

dbTest("a master admin reaches every tenant route as owner without membership", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const root = await signUp(app, "root@example.com");
  for (const r of Object.values(AREAS).flat().filter((r) => r.method !== "DELETE" || r.path)) {
    const res = await root.request(r.method, `/api/tenants/${slug}${r.path}`, r.body);
    assert(![401, 403, 404].includes(res.status), `${r.method} ${r.path}: ${res.status}`);
  }
}, { env: { ADMIN_EMAILS: "root@example.com" } });
