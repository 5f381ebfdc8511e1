// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/** Shared set-up of the quota tests: small plan figures, a fake mail transport, edge calls. */
import { Client, PROXY_DOMAIN, type TestApp } from "./harness.ts";
import { startFakeMail } from "./fakes/mail.ts";

export const ROOT = "root@example.com";
export const INGEST_KEY = "ingest-key-0123456789abcdef";

/** Small figures so a handful of requests cross a limit: free 10 requests / 5,000 bytes. */
export const SMALL_PLANS = {
  free: { monthlyRequests: 10, monthlyBytes: 5_000 },
  pro: { monthlyRequests: 20, monthlyBytes: 1_000_000 },
};

export function quotaEnv(mailUrl: string, extra: Record<string, string> = {}) {
  return {
    QUOTAS: "on",
    PLANS: JSON.stringify(SMALL_PLANS),
    QUOTA_CHECK_INTERVAL_MS: "0",
    ADMIN_EMAILS: ROOT,
    INGEST_KEY,
    MAIL_TRANSPORT_URL: mailUrl,
    ...extra,
  };
}

export const mail = startFakeMail();

/** A GET on the tenant host through the whole program (host routing, edge). */
export async function edgeGet(app: TestApp, slug: string, path: string, accept?: string) {
  const headers: Record<string, string> = accept ? { accept } : {};
  return await new Client(app).get(`http://${slug}.${PROXY_DOMAIN}${path}`, headers);
}

/** Flushes the aggregator: usage reaches Postgres and the threshold gate republishes quotas. */
export async function flush(app: TestApp): Promise<void> {
  await app.instance.usageAggregator.flush();
}

export async function tenantMonth(app: TestApp, tenantId: number) {
  const [r] = await app.services.dbHandle.query<any>(
    `SELECT coalesce(sum(requests),0) AS requests, coalesce(sum(bytes),0) AS bytes
     FROM usage_daily WHERE tenant_id = ${tenantId}`,
  );
  return { requests: Number(r.requests), bytes: Number(r.bytes) };
}

/**
 * Starts a test body at `t`: dbTest runs a body once per backend with the same options, so
 * a clock moved by the first run would otherwise be where the second run starts.
 */
export function at(t: number, fn: (app: TestApp) => Promise<void>) {
  return async (app: TestApp) => {
    app.clock.set(t);
    await fn(app);
  };
}
