/**
 * Per-account quota snapshots in KV: what the edge needs to pause an account's tenants
 * without a database call (docs/architecture.md "Quotas"). Published by the threshold gate
 * (lib/billing/quota_publish.ts) when the account crosses 80 %, 100 % or back.
 */
import { kvKeys } from "./keys.ts";
import { kvRetry } from "./retry.ts";

export type QuotaLevel = 0 | 80 | 100;

export type QuotaSnapshot = {
  v: 1;
  userId: string;
  /** UTC month the figures belong to, `YYYY-MM`. */
  period: string;
  plan: string;
  level: QuotaLevel;
  /** True when the edge must answer 429 for the account's tenants until `resumesAt`. */
  paused: boolean;
  /** Which included amount is used up: `requests` or `bandwidth` (null below 100 %). */
  reason: "requests" | "bandwidth" | null;
  /** Epoch ms of the next UTC month: a pause ends there even if nobody republishes. */
  resumesAt: number;
  publishedAt: number;
};

export async function readQuotaSnapshot(
  kv: Deno.Kv,
  userId: string,
): Promise<QuotaSnapshot | null> {
  return (await kvRetry(() => kv.get<QuotaSnapshot>(kvKeys.quotaSnapshot(userId)))).value;
}
