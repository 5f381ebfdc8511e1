/**
 * GET /api/admin/overview: platform-wide figures for one UTC month. Usage comes from
 * the flushed daily tables (usage_daily, ai_usage_daily), so it trails live traffic
 * by up to one flush interval, like every other usage read.
 */
import { and, count, eq, gte, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiUsageDaily, tenants, users } from "../db/schema/mod.ts";
import { periodRange, sumPeriodUsage, usageByTenant } from "../usage/query.ts";
import type { AdminOverview } from "./view_schema.ts";

/** How many tenants the overview ranks by requests. */
export const OVERVIEW_TOP_TENANTS = 10;

export async function adminOverview(s: Services, period: string): Promise<AdminOverview> {
  const { from, to } = periodRange(period);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);

  const [userCounts] = await s.db.select({
    total: count(),
    blocked: sql<number>`count(*) filter (where ${users.blocked})`,
  }).from(users);
  const adminEmails = [...s.config.adminEmails];
  const [{ admins }] = await s.db.select({ admins: count() }).from(users).where(
    adminEmails.length === 0 ? eq(users.masterAdmin, true) : or(
      eq(users.masterAdmin, true),
      s.config.adminEmailsNeedVerification
        ? and(inArray(users.email, adminEmails), isNotNull(users.emailVerifiedAt))
        : inArray(users.email, adminEmails),
    ),
  );

  const allTenants = await s.db.select({
    id: tenants.id,
    slug: tenants.slug,
    createdAt: tenants.createdAt,
  }).from(tenants);
  const createdInPeriod = allTenants.filter((t) => t.createdAt >= start && t.createdAt < end)
    .length;

  const byTenant = await usageByTenant(s, allTenants.map((t) => t.id), period);
  const usage = sumPeriodUsage(period, byTenant.values());

  const topTenants = allTenants
    .filter((t) => byTenant.has(t.id))
    .map((t) => {
      const u = byTenant.get(t.id)!;
      return { slug: t.slug, requests: u.requests, bytes: u.bytes };
    })
    .sort((a, b) => b.requests - a.requests || b.bytes - a.bytes || a.slug.localeCompare(b.slug))
    .slice(0, OVERVIEW_TOP_TENANTS);

  return {
    period,
    users: { total: Number(userCounts.total), blocked: Number(userCounts.blocked), admins },
    tenants: { total: allTenants.length, createdInPeriod },
    usage: {
      requests: usage.requests,
      bytes: usage.bytes,
      hits: usage.hits,
      misses: usage.misses,
      stale: usage.stale,
      bypass: usage.bypass,
      errors: usage.errors,
      cacheHitRatio: usage.cacheHitRatio,
    },
    ai: await aiTotals(s, from, to),
    topTenants,
  };
}

async function aiTotals(s: Services, from: string, to: string) {
  const [r] = await s.db.select({
    inputTokens: sql<string>`coalesce(sum(${aiUsageDaily.inputTokens}), 0)`,
    outputTokens: sql<string>`coalesce(sum(${aiUsageDaily.outputTokens}), 0)`,
    modelCalls: sql<string>`coalesce(sum(${aiUsageDaily.modelCalls}), 0)`,
  }).from(aiUsageDaily).where(and(gte(aiUsageDaily.day, from), lt(aiUsageDaily.day, to)));
  return {
    inputTokens: Number(r.inputTokens),
    outputTokens: Number(r.outputTokens),
    modelCalls: Number(r.modelCalls),
  };
}
