/**
 * Cache misses: every request a new key, so each one is fetched from the origin.
 * Throughput under load, then latency one request at a time against a direct
 * origin request: the difference is the proxy's miss overhead.
 */
import type { Check, ResultRow, Scenario } from "../types.ts";
import { bestOf, row } from "../helpers.ts";

export const scenario: Scenario = {
  name: "misses",
  async run(ctx) {
    const { cachely, nginx, origin } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const miss = { uniquePrefix: "/miss/" };
    await ctx.wrk(cachely, "/miss/", { ...miss, durationSec: 2 }); // JIT warm-up
    await ctx.wrk(nginx, "/miss/", { ...miss, durationSec: 2 });
    for (const t of [origin, nginx, cachely]) {
      const label = t.name === "origin" ? "origin direct, 2 KB JSON" : "miss, 2 KB JSON";
      rows.push(row(label, t.name, await bestOf(ctx, t, "/miss/", miss)));
    }
    const one = { ...miss, connections: 1 };
    const lat: Record<string, Awaited<ReturnType<typeof bestOf>>> = {};
    for (const t of [origin, nginx, cachely]) {
      lat[t.name] = await bestOf(ctx, t, "/miss/", one);
      const label = t.name === "origin" ? "origin direct, 1 connection" : "miss, 1 connection";
      rows.push(row(label, t.name, lat[t.name]));
    }
    const over50 = lat.cachely.p50Ms - lat.origin.p50Ms;
    const over99 = lat.cachely.p99Ms - lat.origin.p99Ms;
    const ng50 = lat.nginx.p50Ms - lat.origin.p50Ms;
    checks.push({
      name: "miss overhead vs a direct upstream request (p50, 1 connection)",
      want: "≤ 1 ms",
      got: `${over50.toFixed(3)} ms (nginx ${ng50.toFixed(3)} ms)`,
      pass: over50 <= 1,
    });
    return {
      title: "Cache misses",
      rows,
      checks,
      notes: [
        `Overhead at p99 with one connection: Cachely ${over99.toFixed(3)} ms, nginx ${
          (lat.nginx.p99Ms - lat.origin.p99Ms).toFixed(3)
        } ms.`,
        "Each request carries a unique path, so it misses both caches and reaches the origin; Cachely also injects the tenant's bearer token (decrypted per miss) and rewrites the JSON's asset URLs before caching.",
      ],
    };
  },
};
