/**
 * Health probes for load balancers and orchestrators (docs/operations.md "Health probes"),
 * answered on any host that is not a tenant's, before the management app is needed:
 * - `GET /livez`: 200 while the process serves (it answered; nothing else is asked);
 * - `GET /readyz`: 200 when the database answers a query and KV a read, each within
 *   PROBE_TIMEOUT_MS, else 503 naming the failing part. An instance whose database side has not
 *   started (cold start, an outage at boot) is not ready: its management requests would 503.
 */
import { orAfter } from "../timeout.ts";
import { RETRY_AFTER_SECONDS } from "../errors.ts";

/** How long each part may take to answer before the instance counts as not ready. */
const PROBE_TIMEOUT_MS = 2_000;

/** What the readiness probe asks: each returns when the part answered, or throws. */
export type ReadinessParts = {
  /** Null while the database side has not started. */
  database: (() => Promise<unknown>) | null;
  kv: () => Promise<unknown>;
};

type PartResult = { ok: true; ms: number } | { ok: false; error: string };

const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** The probe's answer for `req`, or null when it is not a probe (the caller routes it on). */
export function probeAnswer(
  req: Request,
  parts: () => ReadinessParts,
): Response | Promise<Response> | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const path = pathOf(req.url);
  if (path === "/livez") return Response.json({ ok: true }, { headers: HEADERS });
  if (path === "/readyz") return readiness(parts());
  return null;
}

async function readiness(parts: ReadinessParts): Promise<Response> {
  const [database, kv] = await Promise.all([
    parts.database ? timed(parts.database) : { ok: false, error: "not started" } as PartResult,
    timed(parts.kv),
  ]);
  const failing = [database.ok ? null : "database", kv.ok ? null : "kv"].filter(Boolean);
  const body = { ok: failing.length === 0, failing, database, kv };
  if (body.ok) return Response.json(body, { headers: HEADERS });
  return Response.json(body, {
    status: 503,
    headers: { ...HEADERS, "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

async function timed(ask: () => Promise<unknown>): Promise<PartResult> {
  const t0 = performance.now();
  try {
    const late = await orAfter(ask().then(() => false), PROBE_TIMEOUT_MS, () => true);
    if (late) return { ok: false, error: `no answer within ${PROBE_TIMEOUT_MS} ms` };
    return { ok: true, ms: Math.round(performance.now() - t0) };
  } catch {
    // Not the driver's text: the probe is public, and that text names hosts and ports.
    return { ok: false, error: "failed" };
  }
}

/** The path of an absolute request URL, without building a URL object. */
function pathOf(url: string): string {
  const s = url.indexOf("/", url.indexOf("://") + 3);
  if (s === -1) return "/";
  const q = url.indexOf("?", s);
  return url.slice(s, q === -1 ? url.length : q);
}
