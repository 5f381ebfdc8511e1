/**
 * The usage work of one answered request, for instruction counting under valgrind: the record
 * edge/usage_record.ts builds and the aggregator folding it in (request counters, path and
 * hour counters, the log sampler), as production sets them up (lib/usage/mod.ts defaults):
 *
 *   valgrind --tool=callgrind --smc-check=all-non-file --dump-before=getifaddrs \
 *     deno run -A bench/usage_instructions.ts [records] [rounds]
 *
 * Three phases of `records` records (default 100,000) after a warm-up each: an API hit of one
 * tenant (the synchronous hit path), an asset hit (the async path, with its origin tally), and
 * API hits spread over 50 tenants, `rounds` times (default 2). `Deno.networkInterfaces()` marks
 * the boundaries (as in bench/hit_instructions.ts): dumps `.2`–`.4` are the first round's phases,
 * `.5`–`.7` the second's, …; divide by `records` and take each phase's lowest (a collection
 * of V8's may land in any phase: it counts too).
 */
import { recordRequest, type UsageKind } from "../edge/usage_record.ts";
import { createUsageAggregator } from "../lib/usage/mod.ts";
import { silentLogger } from "../lib/log.ts";
import { loadConfig } from "../lib/config.ts";
import type { EdgeDeps } from "../edge/types.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { OriginTally } from "../edge/origin_tally.ts";

const records = Number(Deno.args[0] ?? 100_000);
const rounds = Number(Deno.args[1] ?? 2);
const WARM_UP = 20_000;

const config = loadConfig({ ...Deno.env.toObject() });
const clock = { now: () => Date.now() };
const { usage } = createUsageAggregator(config, clock, silentLogger, {
  write: () => Promise.resolve({ discarded: 0 }),
});
const deps = { usage, clock, tracing: null } as unknown as EdgeDeps;
const snaps = Array.from(
  { length: 50 },
  (_, i) => ({ tenantId: i + 1, slug: `t${i + 1}` }) as EdgeSnapshot,
);
const res = new Response("x");
const hit = { res, cache: "HIT" as const, bytes: 2048, experiment: null };

type Phase = { label: string; kind: UsageKind; path: string; tenants: number; tally: boolean };
const phases: Phase[] = [
  { label: "api hit", kind: "api", path: "/~api/data.json", tenants: 1, tally: false },
  { label: "asset hit", kind: "asset", path: "/image/upload/v1/a.jpg", tenants: 1, tally: true },
  { label: "api hit, 50 tenants", kind: "api", path: "/~api/data.json", tenants: 50, tally: false },
];
const reqs = snaps.map((s) => new Request(`http://${s.slug}.localhost/~api/data.json`));

function run(p: Phase, n: number): void {
  for (let i = 0; i < n; i++) {
    const t = i % p.tenants;
    const tally: OriginTally | undefined = p.tally ? { requests: 0, bytes: 0, ms: 0 } : undefined;
    recordRequest(
      deps,
      snaps[t],
      reqs[t],
      p.path,
      p.kind,
      hit,
      clock.now(),
      performance.now(),
      tally,
    );
  }
}

for (const p of phases) run(p, WARM_UP);
for (let round = 0; round < rounds; round++) {
  for (const p of phases) {
    Deno.networkInterfaces(); // phase boundary (callgrind --dump-before=getifaddrs)
    const t0 = performance.now();
    run(p, records);
    const ns = (performance.now() - t0) * 1e6 / records;
    console.log(`${p.label}: ${ns.toFixed(0)} ns per record`);
  }
}
Deno.networkInterfaces();
await usage.stop();
