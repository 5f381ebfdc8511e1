/** Read models for dashboard pages: what a tenant page shows, tenant-isolated. */
import { and, desc, eq, gte } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains, tenantMembers, usageDaily, users } from "../db/schema/mod.ts";

export async function tenantOverview(s: Services, tenantId: number) {
  const since = new Date(s.clock.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const [domainRows, memberRows, usageRows] = await Promise.all([
    s.db.select().from(domains).where(eq(domains.tenantId, tenantId)).orderBy(domains.hostname),
    s.db.select({ email: users.email, role: tenantMembers.role, userId: users.id })
      .from(tenantMembers).innerJoin(users, eq(users.id, tenantMembers.userId))
      .where(eq(tenantMembers.tenantId, tenantId)).orderBy(users.email),
    s.db.select().from(usageDaily)
      .where(and(eq(usageDaily.tenantId, tenantId), gte(usageDaily.day, since)))
      .orderBy(desc(usageDaily.day)),
  ]);
  const totals = usageRows.reduce(
    (t, r) => ({
      requests: t.requests + r.requests,
      bytes: t.bytes + r.bytes,
      hits: t.hits + r.hits,
    }),
    { requests: 0, bytes: 0, hits: 0 },
  );
  return {
    domains: domainRows.map((d) => ({
      hostname: d.hostname,
      status: d.status,
      failureReason: d.failureReason,
      token: d.verificationToken,
    })),
    members: memberRows,
    usage30d: { ...totals, hitRatio: totals.requests ? totals.hits / totals.requests : 0 },
  };
}
