/**
 * Concurrent misses of one key: 100 requests for a key nobody has cached, while
 * the origin takes 200 ms to answer. Target: exactly one upstream fetch.
 */
import type { Check, ResultRow, Scenario, Target } from "../types.ts";
import { rawGet } from "../http1.ts";

const CONCURRENCY = 100;

async function burst(target: Target, path: string) {
  const statuses = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const res = await rawGet(target.base, target.path(path), target.host);
      const k = `${res.status} ${
        res.headers.get("x-cachely-cache") ?? res.headers.get("x-cache") ?? ""
      }`.trim();
      statuses.set(k, (statuses.get(k) ?? 0) + 1);
    }),
  );
  return { statuses, ms: performance.now() - started };
}

export const scenario: Scenario = {
  name: "coalescing",
  async run(ctx) {
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const notes: string[] = [];
    for (const t of [ctx.targets.nginx, ctx.targets.cachely]) {
      const path = `/slow/${crypto.randomUUID()}`;
      const b = await burst(t, `${path}?ms=200`);
      const fetches = await ctx.originCount(path);
      ctx.log(`  ${t.name}: ${fetches} upstream fetch(es) for ${CONCURRENCY} concurrent misses`);
      const seen = [...b.statuses].map(([k, n]) => `${n}× ${k}`).join(", ");
      rows.push({
        case: `${CONCURRENCY} concurrent misses, one key`,
        target: t.name,
        rps: null,
        p50Ms: null,
        p99Ms: null,
        note: `${fetches} upstream fetch(es); all done in ${b.ms.toFixed(0)} ms; ${seen}`,
      });
      if (t.name === "cachely") {
        checks.push({
          name: `upstream fetches for ${CONCURRENCY} concurrent misses of one key`,
          want: "exactly 1",
          got: String(fetches),
          pass: fetches === 1,
        });
      }
    }
    notes.push("nginx runs with `proxy_cache_lock on`, its equivalent of miss coalescing.");
    return { title: "Concurrent misses of one key", rows, checks, notes };
  },
};
