/**
 * A full cache stays fast: hits of one key with an empty edge cache, then after 100,000
 * distinct 2 KB entries are cached (target: ≥ 0.9× the empty-cache rate, RSS < 400 MB),
 * heap and external bytes per entry, and a Zipf workload over 10,000 keys (80/20) against
 * nginx. perf instruction counts per hit (when perf is usable) back the requests/s, which a
 * shared machine moves around.
 */
import type { Check, ResultRow, Scenario, WrkResult } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { instructionsPerRequest } from "../instructions.ts";
import { mib } from "../rss.ts";

const ENTRIES = 100_000;
const ZIPF = { prefix: "/miss/zipf-", keys: 10_000 };

export const scenario: Scenario = {
  name: "full-cache",
  // Room for 100,000 entries of ~2.6 KB as the LRU counts them (body + headers + 512).
  env: { EDGE_CACHE_MAX_BYTES: String(640 * 1024 * 1024) },
  async run(ctx) {
    const { cachely, nginx } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const notes: string[] = [];
    const tmp = await Deno.makeTempDir({ prefix: "cachely-full-" });
    const perfOk = await instructionsPerRequest(tmp, ctx.cachelyPid, cachely, "/data.json", {
      connections: 4,
      durationSec: 1,
    }).then(() => true, () => false);

    const measureHits = async (label: string) => {
      await probe(cachely, "/data.json", "x-cachely-cache");
      await probe(cachely, "/data.json", "x-cachely-cache");
      const [r] = await interleaved(ctx, [{ label, target: cachely, path: "/data.json" }]);
      const instr = perfOk
        ? (await instructionsPerRequest(tmp, ctx.cachelyPid, cachely, "/data.json", {
          connections: 16,
          durationSec: 3,
        })).perRequest
        : null;
      return { r, instr };
    };

    await ctx.clearCachelyCache();
    const empty = await measureHits("hit, 2 KB JSON, empty cache");
    const m0 = await ctx.cachelyMemory();

    const fillStart = performance.now();
    let fills = 0;
    for (; fills < 30; fills++) {
      const m = await ctx.cachelyMemory();
      if (m.entries >= ENTRIES + 1) break;
      await ctx.wrk(cachely, "/miss/", { uniquePrefix: `/miss/full-${fills}-`, durationSec: 5 });
    }
    const fillSec = (performance.now() - fillStart) / 1000;
    const m1 = await ctx.cachelyMemory();
    const full = await measureHits("hit, 2 KB JSON, 100,000 entries cached");
    rows.push(row("hit, 2 KB JSON, empty cache", "cachely", empty.r));
    rows.push(row(`hit, 2 KB JSON, ${m1.entries} entries cached`, "cachely", full.r));

    const added = m1.entries - m0.entries;
    const heapPer = (m1.heapUsed - m0.heapUsed) / added;
    const extPer = (m1.external - m0.external) / added;
    checks.push(
      ratioCheck("full cache: hit throughput vs empty cache", ratio(full.r.rps, empty.r.rps), 0.9),
    );
    if (empty.instr !== null && full.instr !== null) {
      checks.push(ratioCheck(
        "full cache: instructions per hit vs empty cache (perf)",
        full.instr / empty.instr,
        1.11,
        true,
      ));
    }
    checks.push({
      name: `full cache: Cachely RSS with ${m1.entries} entries`,
      want: "< 400 MB",
      got: `${mib(m1.rss)} MiB`,
      pass: m1.rss < 400 * 1024 * 1024,
    });
    notes.push(
      `Filled ${added} entries in ${
        fillSec.toFixed(0)
      } s (${fills} wrk runs of unique /miss/ paths); the edge cache then held ${m1.entries} entries, ${
        mib(m1.cacheBytes)
      } MiB as the LRU counts them.`,
      `Memory after a full GC: heap used ${mib(m0.heapUsed)} → ${mib(m1.heapUsed)} MiB (**${
        heapPer.toFixed(0)
      } heap bytes per entry**), external (ArrayBuffer bodies) ${mib(m0.external)} → ${
        mib(m1.external)
      } MiB (${extPer.toFixed(0)} bytes per entry), RSS ${mib(m0.rss)} → ${mib(m1.rss)} MiB.`,
      empty.instr !== null && full.instr !== null
        ? `perf: ${
          empty.instr.toFixed(0)
        } instructions per hit (user space, whole process) with an empty cache, ${
          full.instr.toFixed(0)
        } with it full.`
        : "perf was not usable here, so no instruction counts.",
      "Empty and full are measured one after the other (the fill sits between them), not interleaved: compare with care on a busy machine; the instruction counts are the steadier figure.",
    );

    // Zipf over 10,000 keys: fill every key on both, then interleave.
    await ctx.wrk(cachely, "/miss/", { zipf: ZIPF, durationSec: 3 });
    await ctx.wrk(nginx, "/miss/", { zipf: ZIPF, durationSec: 3 });
    const z: WrkResult[] = await interleaved(ctx, [
      { label: "Zipf 10,000 keys", target: nginx, path: "/miss/", opts: { zipf: ZIPF } },
      { label: "Zipf 10,000 keys", target: cachely, path: "/miss/", opts: { zipf: ZIPF } },
    ]);
    rows.push(row("Zipf, 10,000 keys (s = 1)", "nginx", z[0]));
    rows.push(row("Zipf, 10,000 keys (s = 1)", "cachely", z[1]));
    notes.push(
      "Zipf: each request picks key k of 10,000 with probability ∝ 1/k (the top 20% of keys get ~83% of requests); both caches were warmed with 3 s of the same workload first, so the rare keys are mostly hits too, until their 60 s TTL ends.",
    );
    checks.push(
      ratioCheck("Zipf 10,000 keys: throughput vs nginx (context)", ratio(z[1].rps, z[0].rps), 0.8),
    );
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    return { title: "A full cache", rows, checks, notes };
  },
};
