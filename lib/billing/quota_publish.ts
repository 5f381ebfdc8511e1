/**
 * Publishes an account's quota snapshot to KV for the edge (docs/architecture.md "Quotas").
 * Called by the threshold gate after usage flushes, on plan changes and admin overrides,
 * and by the backfill. The write is conditional on what was read (KV atomic check), so of
 * several instances publishing the same change exactly one sees it as a change: that one
 * sends the warning mail.
 */
import type { Services } from "../services.ts";
import { kvKeys } from "../kv/keys.ts";
import { kvCompareAndSet, LOST_RACE } from "../kv/compare_and_set.ts";
import { announceChange } from "../kv/changes.ts";
import type { QuotaSnapshot } from "../kv/quota.ts";
import { accountMonth, nextPeriodStart, type QuotaState } from "./quota.ts";
import { sendQuotaMail } from "./quota_mail.ts";
import { enforceDomainPlan } from "../domains/plan_rules.ts";

export type PublishResult = { changed: boolean; snapshot: QuotaSnapshot; quota: QuotaState };

function snapshotOf(userId: string, q: QuotaState, now: number): QuotaSnapshot {
  return {
    v: 1,
    userId,
    period: q.period,
    plan: q.plan,
    level: q.level,
    paused: q.paused,
    reason: q.reason,
    resumesAt: nextPeriodStart(q.period),
    publishedAt: now,
  };
}

const same = (a: QuotaSnapshot | null, b: QuotaSnapshot) =>
  a !== null && a.period === b.period && a.plan === b.plan && a.level === b.level &&
  a.paused === b.paused && a.reason === b.reason;

/** Recomputes the account's month and writes its snapshot when anything the edge uses changed. */
export async function publishQuota(s: Services, userId: string): Promise<PublishResult> {
  const now = s.clock.now();
  const { quota } = await accountMonth(s, userId);
  const next = snapshotOf(userId, quota, now);
  const key = kvKeys.quotaSnapshot(userId);
  const { previous, written } = await kvCompareAndSet(async () => {
    const cur = await s.kv.get<QuotaSnapshot>(key);
    if (same(cur.value, next)) return { previous: cur.value, written: false };
    const op = announceChange(s.kv.atomic().check(cur).set(key, next), {
      kind: "quota",
      id: userId,
    });
    return (await op.commit()).ok ? { previous: cur.value, written: true } : LOST_RACE;
  }, {
    attempts: 6,
    exhausted: () => {
      throw new Error("quota snapshot write kept conflicting");
    },
  });
  if (!written) {
    await enforceDomainPlan(s, userId, quota.plan);
    return { changed: false, snapshot: previous!, quota };
  }
  for (const listener of s.quotaListeners) listener(userId);
  const before = previous && previous.period === next.period ? previous.level : 0;
  if (next.level > before) await sendQuotaMail(s, userId, quota);
  await enforceDomainPlan(s, userId, quota.plan);
  return { changed: true, snapshot: next, quota };
}
