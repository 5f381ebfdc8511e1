/**
 * The edge's quota check (docs/architecture.md "Quotas"): a tenant whose billing account is
 * paused answers 429 until the next UTC month. It reads only the account's memoised KV quota
 * snapshot, so a hit costs a Map lookup; any failure to read it serves the request
 * (fail-open). Paused answers are not usage: nothing is sent upstream or counted.
 */
import type { QuotaSnapshot } from "../lib/kv/quota.ts";

/** True while `q` pauses its account at `now` (the pause ends with its month by itself). */
export function isPaused(q: QuotaSnapshot | null, now: number): q is QuotaSnapshot {
  return q !== null && q.paused && now < q.resumesAt;
}

/** 429 with Retry-After (seconds to the next UTC month) and a body naming the reason. */
export function pausedResponse(
  q: QuotaSnapshot,
  now: number,
  req: Request,
  api: boolean,
): Response {
  const retryAfter = Math.max(1, Math.ceil((q.resumesAt - now) / 1000));
  const resumesAt = new Date(q.resumesAt).toISOString();
  const what = q.reason === "requests" ? "requests" : "bandwidth";
  const message =
    `Monthly quota exceeded: the ${q.plan} plan's included ${what} for ${q.period} are used up; service resumes at ${resumesAt}`;
  const headers: Record<string, string> = {
    "retry-after": String(retryAfter),
    "cache-control": "no-store",
    "x-cachely-edge": "1",
    "x-cachely-quota": `paused; reason=${what}`,
    "access-control-allow-origin": "*",
  };
  const accept = req.headers.get("accept") ?? "";
  if (api || accept.includes("json")) {
    headers["content-type"] = "application/json";
    const body = {
      error: {
        code: "quota_exceeded",
        message,
        details: { reason: what, plan: q.plan, period: q.period, resumesAt, retryAfter },
      },
    };
    return new Response(JSON.stringify(body), { status: 429, headers });
  }
  headers["content-type"] = "text/plain; charset=utf-8";
  return new Response(`${message}\n`, { status: 429, headers });
}
