/**
 * Metered overage for plans that meter (pro) through Stripe usage-based billing: once per
 * account per UTC day, the month's overage through the last finished day, minus what earlier
 * reports of the month already carried, is sent as billing meter events (README "Plans").
 *
 * Exactly once: the (account, day) row is claimed by one INSERT ... ON CONFLICT DO NOTHING, so one
 * instance reports a day; its quantities are stored before the call, and every attempt sends them
 * with the same Stripe idempotency keys, so a retry after a lost answer never bills twice. A
 * failure is recorded and retried later with backoff; nothing here is on a request's path.
 */
import { and, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Services } from "../services.ts";
import { billingAccounts, overageReports, usageDaily } from "../db/schema/mod.ts";
import { billedTenants } from "./owners.ts";
import { overageOf } from "./quota.ts";
import { stripeClient } from "./stripe_client.ts";
import { periodRange } from "../usage/query.ts";
import { addDays, utcDay } from "../usage/days.ts";
import { backfillQuotaSnapshots } from "./quota_backfill.ts";

const DAY_MS = 86_400_000;
/** A claimed row whose reporter vanished (crash, SIGKILL) is retried after this long. */
const LEASE_MS = 10 * 60_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;

type Row = typeof overageReports.$inferSelect;

export type OverageRun = { day: string; claimed: number; reported: number; failed: number };

/** Reports the last finished UTC day for every metered account, then retries failed days. */
export async function reportOverage(s: Services): Promise<OverageRun> {
  const now = s.clock.now();
  const day = utcDay(now - DAY_MS);
  const run: OverageRun = { day, claimed: 0, reported: 0, failed: 0 };
  if (!s.config.quotas || !s.config.stripe.secretKey) return run;
  const metered = Object.values(s.config.plans).filter((p) => p.overLimit === "meter")
    .map((p) => p.code);
  const accounts = await s.db.select({
    userId: billingAccounts.userId,
    planCode: billingAccounts.planCode,
  }).from(billingAccounts).where(and(
    inArray(billingAccounts.planCode, metered),
    sql`${billingAccounts.stripeCustomerId} IS NOT NULL`,
  ));
  for (const a of accounts) {
    const row = await claimDay(s, a.userId, s.config.plans[a.planCode], day, now);
    if (!row) continue;
    run.claimed++;
    (await send(s, row)) ? run.reported++ : run.failed++;
  }
  for (const row of await leaseRetries(s, now)) {
    (await send(s, row)) ? run.reported++ : run.failed++;
  }
  return run;
}

/** Computes the day's delta and claims the (account, day) row; null when nothing to report. */
async function claimDay(
  s: Services,
  userId: string,
  plan: Services["config"]["plans"]["pro"],
  day: string,
  now: number,
): Promise<Row | null> {
  const period = day.slice(0, 7);
  const ids = (await billedTenants(s, userId)).map((t) => t.id);
  if (ids.length === 0) return null;
  const { from } = periodRange(period);
  const [u] = await s.db.select({
    requests: sql<string>`coalesce(sum(${usageDaily.requests}), 0)`,
    bytes: sql<string>`coalesce(sum(${usageDaily.bytes}), 0)`,
  }).from(usageDaily).where(and(
    inArray(usageDaily.tenantId, ids),
    gte(usageDaily.day, from),
    lte(usageDaily.day, day),
  ));
  const over = overageOf(plan, Number(u.requests), Number(u.bytes));
  const [done] = await s.db.select({
    requests: sql<string>`coalesce(sum(${overageReports.requests}), 0)`,
    bytes: sql<string>`coalesce(sum(${overageReports.bytes}), 0)`,
  }).from(overageReports).where(and(
    eq(overageReports.userId, userId),
    eq(overageReports.period, period),
    lt(overageReports.day, day),
  ));
  const requests = Math.max(0, over.requests - Number(done.requests));
  const bytes = Math.max(0, over.bytes - Number(done.bytes));
  if (requests === 0 && bytes === 0) return null;
  const amountUsd = overageOf(plan, plan.monthlyRequests + requests, plan.monthlyBytes + bytes)
    .totalUsd;
  const [row] = await s.db.insert(overageReports).values({
    userId,
    day,
    period,
    requests,
    bytes,
    amountUsd,
    status: "pending",
    nextAttemptAt: new Date(now + LEASE_MS),
    createdAt: new Date(now),
  }).onConflictDoNothing().returning();
  return row ?? null;
}

/** Takes a lease on failed (or abandoned) rows whose next attempt is due. */
async function leaseRetries(s: Services, now: number): Promise<Row[]> {
  return await s.db.update(overageReports)
    .set({ nextAttemptAt: new Date(now + LEASE_MS) })
    .where(and(
      ne(overageReports.status, "reported"),
      or(isNull(overageReports.nextAttemptAt), lte(overageReports.nextAttemptAt, new Date(now))),
    )).returning();
}

/** Sends a row's meter events; records success, or the failure and when to try again. */
async function send(s: Services, row: Row): Promise<boolean> {
  const now = s.clock.now();
  const key = (what: string) => `cachely-overage-${row.userId}-${row.day}-${what}`;
  try {
    const [acct] = await s.db.select({ customer: billingAccounts.stripeCustomerId })
      .from(billingAccounts).where(eq(billingAccounts.userId, row.userId));
    if (!acct?.customer) throw new Error("no_customer");
    const stripe = await stripeClient(s.config);
    // The event's time is the end of the reported day (still inside the billing period).
    const timestamp = Math.floor((Date.parse(`${addDays(row.day, 1)}T00:00:00Z`) - 1000) / 1000);
    const events: [string, number, string][] = [
      [s.config.stripeMeters.requests, row.requests, "requests"],
      [s.config.stripeMeters.bytes, row.bytes, "bytes"],
    ];
    for (const [eventName, value, what] of events) {
      if (value <= 0) continue;
      const params: Stripe.Billing.MeterEventCreateParams = {
        event_name: eventName,
        payload: { stripe_customer_id: acct.customer, value: String(value) },
        identifier: key(what),
        timestamp,
      };
      await stripe.billing.meterEvents.create(params, { idempotencyKey: key(what) });
    }
    await s.db.update(overageReports).set({
      status: "reported",
      attempts: row.attempts + 1,
      lastError: null,
      nextAttemptAt: null,
      reportedAt: new Date(now),
    }).where(and(eq(overageReports.userId, row.userId), eq(overageReports.day, row.day)));
    return true;
  } catch (e) {
    const error = (e as { type?: string }).type ?? (e instanceof Error ? e.message : "error");
    const backoff = Math.min(MAX_BACKOFF_MS, 5 * 60_000 * 2 ** row.attempts);
    await s.db.update(overageReports).set({
      status: "failed",
      attempts: row.attempts + 1,
      lastError: error.slice(0, 200),
      nextAttemptAt: new Date(now + backoff),
    }).where(and(eq(overageReports.userId, row.userId), eq(overageReports.day, row.day)));
    s.log.warn("overage report failed; retried later", { day: row.day, error });
    return false;
  }
}

/**
 * The quota maintenance loop, every OVERAGE_REPORT_INTERVAL_MS (unref'd): overage reports, and
 * once per UTC day per instance a quota backfill (new month, domain grace ends) so accounts
 * without traffic are republished too. The returned function stops it.
 */
export function startOverageReporter(s: Services): () => void {
  let running = false;
  let lastBackfillDay = "";
  const timer = setInterval(async () => {
    if (running || !s.config.quotas) return;
    running = true;
    try {
      const today = utcDay(s.clock.now());
      if (today !== lastBackfillDay) {
        lastBackfillDay = today;
        await backfillQuotaSnapshots(s);
      }
      await reportOverage(s);
    } catch (e) {
      s.log.warn("overage reporter failed", { error: e instanceof Error ? e.message : "error" });
    } finally {
      running = false;
    }
  }, s.config.overageReportIntervalMs);
  Deno.unrefTimer(timer as unknown as number);
  return () => clearInterval(timer);
}
