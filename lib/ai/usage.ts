/**
 * Token usage (SPEC "Token usage"): input plus output tokens per UTC day and month.
 * Caps are checked against cheap Deno KV counters (shared by every instance, one
 * getMany per run); the per-day history for the usage endpoint lives in Postgres
 * (ai_usage_daily), written by the queued run logger.
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiUsageDaily } from "../db/schema/mod.ts";
import { addDays, utcDay } from "../usage/days.ts";
import { currentPeriod, periodRange } from "../usage/query.ts";
import type { AiLimits } from "./snapshot_types.ts";
import { MAX_FIELDS_PER_PREVIEW, MAX_FIELDS_PER_RUNTIME_RULE } from "./snapshot_types.ts";
import { kvCommit } from "../kv/retry.ts";
import type { AiUsageView, UsagePeriod } from "./view_schema.ts";

export { utcDay };

const dayKey = (tenantId: number, day: string) => ["ai", "tokens", tenantId, "d", day];
const monthKey = (tenantId: number, month: string) => ["ai", "tokens", tenantId, "m", month];

/** Adds tokens to the KV counters of the current UTC day and month. */
export async function addTokens(
  kv: Deno.Kv,
  tenantId: number,
  nowMs: number,
  tokens: number,
): Promise<void> {
  if (tokens <= 0) return;
  const n = new Deno.KvU64(BigInt(tokens));
  await kvCommit(() =>
    kv.atomic()
      .sum(dayKey(tenantId, utcDay(nowMs)), n.value)
      .sum(monthKey(tenantId, currentPeriod(nowMs)), n.value)
  );
}

export type CapHit = "token-cap-daily" | "token-cap-monthly";

/** Which cap, if any, is already reached for this tenant right now. */
export async function capReached(
  kv: Deno.Kv,
  tenantId: number,
  nowMs: number,
  limits: Pick<AiLimits, "dailyTokenCap" | "monthlyTokenCap">,
): Promise<CapHit | null> {
  if (limits.dailyTokenCap === null && limits.monthlyTokenCap === null) return null;
  const [d, m] = await kv.getMany<[Deno.KvU64, Deno.KvU64]>([
    dayKey(tenantId, utcDay(nowMs)),
    monthKey(tenantId, currentPeriod(nowMs)),
  ]);
  const used = (e: Deno.KvEntryMaybe<Deno.KvU64>) => Number(e.value?.value ?? 0n);
  if (limits.dailyTokenCap !== null && used(d) >= limits.dailyTokenCap) return "token-cap-daily";
  if (limits.monthlyTokenCap !== null && used(m) >= limits.monthlyTokenCap) {
    return "token-cap-monthly";
  }
  return null;
}

/** Adds one run's tokens to the Postgres daily row (called from the run logger's flush). */
export async function upsertDailyUsage(
  s: Services,
  rows: {
    tenantId: number;
    day: string;
    inputTokens: number;
    outputTokens: number;
    modelCalls: number;
  }[],
): Promise<void> {
  for (const r of rows) {
    await s.db.insert(aiUsageDaily).values(r).onConflictDoUpdate({
      target: [aiUsageDaily.tenantId, aiUsageDaily.day],
      set: {
        inputTokens: sql`${aiUsageDaily.inputTokens} + ${r.inputTokens}`,
        outputTokens: sql`${aiUsageDaily.outputTokens} + ${r.outputTokens}`,
        modelCalls: sql`${aiUsageDaily.modelCalls} + ${r.modelCalls}`,
      },
    });
  }
}

/** A tenant's token usage summed over the days in [from, toExclusive). */
export async function sumUsage(s: Services, tenantId: number, from: string, toExclusive: string) {
  const [row] = await s.db.select({
    inputTokens: sql<string>`coalesce(sum(${aiUsageDaily.inputTokens}), 0)`,
    outputTokens: sql<string>`coalesce(sum(${aiUsageDaily.outputTokens}), 0)`,
    modelCalls: sql<string>`coalesce(sum(${aiUsageDaily.modelCalls}), 0)`,
  }).from(aiUsageDaily).where(and(
    eq(aiUsageDaily.tenantId, tenantId),
    gte(aiUsageDaily.day, from),
    lt(aiUsageDaily.day, toExclusive),
  ));
  return {
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    modelCalls: Number(row.modelCalls),
  };
}

/** `{ monthly, daily, limits }` for the usage endpoint (field names in docs/decisions.md). */
export async function usageView(
  s: Services,
  tenantId: number,
  limits: AiLimits,
): Promise<AiUsageView> {
  const now = s.clock.now();
  const day = utcDay(now);
  const month = currentPeriod(now);
  const { from, to } = periodRange(month);
  const m = await sumUsage(s, tenantId, from, to);
  const d = await sumUsage(s, tenantId, day, addDays(day, 1));
  const period = (p: string, u: typeof m): UsagePeriod => ({
    period: p,
    ...u,
    totalTokens: u.inputTokens + u.outputTokens,
  });
  const monthly = period(month, m);
  const daily = period(day, d);
  return {
    monthly,
    daily,
    limits: {
      ...limits,
      monthlyRemaining: limits.monthlyTokenCap === null
        ? null
        : Math.max(0, limits.monthlyTokenCap - monthly.totalTokens),
      dailyRemaining: limits.dailyTokenCap === null
        ? null
        : Math.max(0, limits.dailyTokenCap - daily.totalTokens),
      maxFieldsPerRuntimeRule: MAX_FIELDS_PER_RUNTIME_RULE,
      maxFieldsPerPreview: MAX_FIELDS_PER_PREVIEW,
    },
  };
}
