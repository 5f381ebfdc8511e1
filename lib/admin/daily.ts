/**
 * Daily usage series for master admins, zero-filled: bandwidth across all tenants (or
 * one), and one user's traffic across the tenants they belong to.
 */
import { and, type AnyColumn, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenantMembers, tenants, usageDaily } from "../db/schema/mod.ts";
import { notFound } from "../errors.ts";
import { periodRange } from "../usage/query.ts";
import { addDays, daysInclusive, zeroFill } from "../usage/days.ts";
import { bandwidthSeries } from "../usage/analytics.ts";
import { requireUser } from "./users.ts";
import type { AdminBandwidth, UserDaily } from "./view_schema.ts";

const sum = (col: AnyColumn) => sql<string>`coalesce(sum(${col}), 0)`;

/** Per-day sums of usage_daily over [from, to], for the tenants `where` selects. */
function dailySums(s: Services, from: string, to: string, where?: SQL) {
  return s.db.select({
    day: usageDaily.day,
    requests: sum(usageDaily.requests),
    bytes: sum(usageDaily.bytes),
    hits: sum(usageDaily.hits),
    misses: sum(usageDaily.misses),
    errors: sum(usageDaily.errors),
  }).from(usageDaily)
    .where(and(gte(usageDaily.day, from), lte(usageDaily.day, to), where))
    .groupBy(usageDaily.day);
}

/** Bytes and requests per day over [from, to] (inclusive), all tenants or one slug (404 unknown). */
export async function bandwidthDaily(
  s: Services,
  input: { from: string; to: string; tenant?: string },
): Promise<AdminBandwidth> {
  let where: SQL | undefined;
  if (input.tenant !== undefined) {
    const [t] = await s.db.select({ id: tenants.id }).from(tenants)
      .where(eq(tenants.slug, input.tenant));
    if (!t) throw notFound("Tenant");
    where = eq(usageDaily.tenantId, t.id);
  }
  return {
    ...(await bandwidthSeries(s, input.from, input.to, where)),
    tenant: input.tenant ?? null,
  };
}

/** One user's usage per day of `period`, summed over the tenants they are a member of (404 unknown user). */
export async function userDaily(
  s: Services,
  userId: string,
  period: string,
): Promise<UserDaily> {
  const u = await requireUser(s, userId);
  const memberships = await s.db.select({ id: tenants.id, slug: tenants.slug })
    .from(tenantMembers).innerJoin(tenants, eq(tenants.id, tenantMembers.tenantId))
    .where(eq(tenantMembers.userId, u.id)).orderBy(tenants.slug);
  const range = periodRange(period);
  const last = addDays(range.to, -1);
  const ids = memberships.map((m) => m.id);
  const rows = ids.length === 0
    ? []
    : await dailySums(s, range.from, last, inArray(usageDaily.tenantId, ids));
  return {
    userId: u.id,
    period,
    tenants: memberships.map((m) => m.slug),
    days: zeroFill(
      daysInclusive(range.from, last),
      rows,
      ["requests", "bytes", "hits", "misses", "errors"] as const,
    ),
  };
}
