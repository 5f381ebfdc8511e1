/**
 * Cache misses: every request a new key, so each one is fetched from the origin.
 * Throughput under load (target ≥ 0.8× nginx), then latency one request at a time
 * against a direct origin request: the difference is the proxy's miss overhead
 * (target: p50 ≤ 0.3 ms). Interleaved rounds, medians.
 */
import type { Check, ResultRow, Scenario } from "../types.ts";
import { interleaved, ratio, ratioCheck, row } from "../helpers.ts";

export const scenario: Scenario = {
  name: "misses",
  async run(ctx) {
    const { cachely, nginx, origin, floorProxy, floorBuffered } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const miss = { uniquePrefix: "/miss/" };
    await ctx.wrk(cachely, "/miss/", { ...miss, durationSec: 1 }); // JIT warm-up
    await ctx.wrk(nginx, "/miss/", { ...miss, durationSec: 1 });
    const all = [origin, nginx, cachely, floorProxy, floorBuffered];
    const load = await interleaved(
      ctx,
      all.map((t) => ({
        label: t === origin ? "origin direct, 2 KB JSON" : "miss, 2 KB JSON",
        target: t,
        path: "/miss/",
        opts: miss,
      })),
    );
    const one = { ...miss, connections: 1 };
    const lat = await interleaved(
      ctx,
      all.map((t) => ({
        label: t === origin ? "origin direct, 1 connection" : "miss, 1 connection",
        target: t,
        path: "/miss/",
        opts: one,
      })),
    );
    all.forEach((t, i) =>
      rows.push(row(t === origin ? "origin direct, 2 KB JSON" : "miss, 2 KB JSON", t.name, load[i]))
    );
    all.forEach((t, i) =>
      rows.push(
        row(t === origin ? "origin direct, 1 connection" : "miss, 1 connection", t.name, lat[i]),
      )
    );
    checks.push(
      ratioCheck("miss, 2 KB JSON: throughput vs nginx", ratio(load[2].rps, load[1].rps), 0.8),
    );
    checks.push(
      ratioCheck(
        "miss, 2 KB JSON: throughput vs the fetch-proxy floor (context)",
        ratio(load[2].rps, load[3].rps),
        0.8,
      ),
    );
    checks.push(
      ratioCheck(
        "miss, 2 KB JSON: throughput vs the buffered-proxy floor (context)",
        ratio(load[2].rps, load[4].rps),
        0.8,
      ),
    );
    const over50 = lat[2].p50Ms - lat[0].p50Ms;
    const ng50 = lat[1].p50Ms - lat[0].p50Ms;
    checks.push({
      name: "miss overhead vs a direct upstream request (p50, 1 connection)",
      want: "≤ 0.3 ms",
      got: `${over50.toFixed(3)} ms (nginx ${ng50.toFixed(3)} ms)`,
      pass: over50 <= 0.3,
    });
    return {
      title: "Cache misses",
      rows,
      checks,
      notes: [
        `Overhead at p99 with one connection: Cachely ${
          (lat[2].p99Ms - lat[0].p99Ms).toFixed(3)
        } ms, nginx ${(lat[1].p99Ms - lat[0].p99Ms).toFixed(3)} ms.`,
        "Each request carries a unique path, so it misses both caches and reaches the origin; Cachely also injects the tenant's bearer token and rewrites the JSON's asset URLs before caching.",
        `\`floor, fetch proxy\` is a bare Deno.serve that fetch()es the origin and returns the body (no cache, no headers work): the runtime's own ceiling for a miss; its p50 overhead over the direct request at one connection was ${
          (lat[3].p50Ms - lat[0].p50Ms).toFixed(3)
        } ms.`,
        "`floor, buffered proxy` also reads the body into memory and sends it with Cachely's miss header set (what a cache must do at least): the part of a miss above it is Cachely's own work and storing the entry.",
      ],
    };
  },
};
