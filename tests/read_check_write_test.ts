/**
 * Read-check-writes under concurrency (docs/architecture.md "Read-check-writes"):
 * two owners demoting or removing each other at the same moment always leave at least
 * one owner; concurrent creations never pass a per-tenant limit together.
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { MAX_WEBHOOKS_PER_TENANT } from "../lib/webhooks/cache_refresh.ts";

const TRIALS = 5;

for (const action of ["update-role", "remove"] as const) {
  dbTest(`two owners who ${action} each other at once leave one owner`, async (app) => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const a = await signUp(app);
      const slug = await createTenant(a);
      const b = await memberWithRole(app, a, slug, "owner");
      const path = `/api/tenants/${slug}/members/${action}`;
      const body = (userId: string) => action === "remove" ? { userId } : { userId, role: "admin" };
      const [ra, rb] = await Promise.all([
        a.post(path, body(b.userId)),
        b.post(path, body(a.userId)),
      ]);
      // The loser is refused: 403 by the rule, or 404 when it was no longer a member by the
      // time its request looked the tenant up.
      const statuses = [ra.status, rb.status].sort();
      assertEquals(statuses[0], 200, `trial ${trial}: ${ra.text} ${rb.text}`);
      assert([403, 404].includes(statuses[1]), `trial ${trial}: ${ra.text} ${rb.text}`);
      const owners = await app.services.dbHandle.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tenant_members m JOIN tenants t ON t.id = m.tenant_id
         WHERE t.slug = '${slug}' AND m.role = 'owner'`,
      );
      assert(owners[0].n >= 1, `trial ${trial}: the tenant has no owner`);
    }
  });
}

dbTest(
  "concurrent cache-refresh webhook creations never exceed the per-tenant limit",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const path = `/api/tenants/${slug}/cache-refresh-webhooks`;
    for (let i = 0; i < MAX_WEBHOOKS_PER_TENANT - 1; i++) {
      assertEquals((await owner.post(path, { provider: "generic" })).status, 201);
    }
    const rs = await Promise.all(
      Array.from({ length: 4 }, () => owner.post(path, { provider: "generic" })),
    );
    assertEquals(rs.filter((r) => r.status === 201).length, 1, rs.map((r) => r.status).join());
    assertEquals((await owner.get(path)).body.webhooks.length, MAX_WEBHOOKS_PER_TENANT);
  },
);
