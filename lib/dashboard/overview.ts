/**
 * Read models for dashboard pages: what a tenant page shows, tenant-isolated. Traffic
 * figures are the UTC month's, from lib/usage/query.ts like the Usage page and the API.
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { domains, tenantMembers, users } from "../db/schema/mod.ts";
import { currentPeriod, previousPeriod, tenantPeriodUsage } from "../usage/query.ts";

export async function tenantOverview(s: Services, tenantId: number) {
  const period = currentPeriod(s.clock.now());
  const [domainRows, memberRows, thisMonth, lastMonth] = await Promise.all([
    s.db.select().from(domains).where(eq(domains.tenantId, tenantId)).orderBy(domains.hostname),
    s.db.select({ email: users.email, role: tenantMembers.role, userId: users.id })
      .from(tenantMembers).innerJoin(users, eq(users.id, tenantMembers.userId))
      .where(eq(tenantMembers.tenantId, tenantId)).orderBy(users.email),
    tenantPeriodUsage(s, tenantId, period),
    tenantPeriodUsage(s, tenantId, previousPeriod(period)),
  ]);
  return {
    domains: domainRows.map((d) => ({
      hostname: d.hostname,
      status: d.status,
      failureReason: d.failureReason,
      token: d.verificationToken,
    })),
    members: memberRows,
    thisMonth,
    lastMonth,
  };
}
