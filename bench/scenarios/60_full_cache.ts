/**
 * A full cache stays fast: two fresh Cachely processes side by side, one filled with
 * 100,000 distinct 2 KB entries and one left empty, then hits of one key against both in
 * interleaved rounds (target: full ≥ 0.9× empty), the filled process's RSS (target:
 * < 400 MB), heap and external bytes per entry, and a Zipf workload over 10,000 keys (80/20)
 * against nginx. Fresh processes, because RSS is a high-water mark: the shared Cachely has
 * already cached every miss of the earlier scenarios, and memory a process once held is
 * not all returned (bench/ANALYSIS.md "Session 4").
 */
import type { Check, ResultRow, Scenario, WrkResult } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { instructionsPerRequest } from "../instructions.ts";
import { mib, rssOf } from "../rss.ts";
import { benchV8Flags } from "../cachely_proc.ts";

const ENTRIES = 100_000;
const ZIPF = { prefix: "/miss/zipf-", keys: 10_000 };
/** The churn process's bound (the default EDGE_CACHE_MAX_BYTES) and its 5 s runs of misses. */
const CHURN_BOUND = 256 * 1024 * 1024;
const CHURN_RUNS = 6;
/** Idle time after the hit rounds: V8's memory reducer shrinks the young generation. */
const REST_MS = 25_000;

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
    const sharedRss = await rssOf(ctx.cachelyPid);
    const full = await ctx.startCachely();
    const empty = await ctx.startCachely();
    const fullT = { ...full.api, name: "cachely, full" };
    const emptyT = { ...empty.api, name: "cachely, empty" };
    const start = { full: await rssOf(full.pid), empty: await rssOf(empty.pid) };
    for (const t of [fullT, emptyT]) {
      await probe(t, "/data.json", "x-cachely-cache");
      await probe(t, "/data.json", "x-cachely-cache");
    }
    const m0 = await full.memory();

    const fillStart = performance.now();
    let fills = 0;
    // Fill in runs sized from the previous run's rate, so the cache ends near ENTRIES rather
    // than a whole 5 s run past it (the targets name 100,000 entries).
    let perSec = 0;
    for (; fills < 30; fills++) {
      const before = (await full.memory()).entries;
      if (before >= ENTRIES + 1) break;
      const left = ENTRIES + 1 - before;
      const durationSec = perSec > 0 ? Math.max(1, Math.min(5, Math.ceil(left / perSec))) : 5;
      // At most `left` distinct paths per run: past them the run repeats its last path (hits
      // on one key), so the cache ends at ENTRIES whatever the rate estimate.
      await ctx.wrk(fullT, "/miss/", {
        uniquePrefix: `/miss/full-${fills}-`,
        uniqueKeys: left,
        durationSec,
      });
      perSec = ((await full.memory()).entries - before) / durationSec;
    }
    const fillSec = (performance.now() - fillStart) / 1000;
    const m1 = await full.memory(); // after a full GC
    const rssFull = await rssOf(full.pid);

    const [e, f] = await interleaved(ctx, [
      { label: "hit, 2 KB JSON, empty cache", target: emptyT, path: "/data.json" },
      { label: `hit, 2 KB JSON, ${m1.entries} entries cached`, target: fullT, path: "/data.json" },
    ]);
    rows.push(row("hit, 2 KB JSON, empty cache", "cachely (fresh process)", e));
    rows.push(row(`hit, 2 KB JSON, ${m1.entries} entries cached`, "cachely (fresh process)", f));
    checks.push(ratioCheck("full cache: hit throughput vs empty cache", ratio(f.rps, e.rps), 0.9));
    const perf = async (pid: number, t: typeof fullT) =>
      await instructionsPerRequest(tmp, pid, t, "/data.json", { connections: 16, durationSec: 3 })
        .then((r) => r.perRequest, () => null);
    const instrEmpty = await perf(empty.pid, emptyT);
    const instrFull = instrEmpty === null ? null : await perf(full.pid, fullT);
    if (instrEmpty !== null && instrFull !== null) {
      checks.push(ratioCheck(
        "full cache: instructions per hit vs empty cache (perf)",
        instrFull / instrEmpty,
        1.11,
        true,
      ));
    }
    // V8 grows its young generation to the maximum during a burst of misses (most of what a
    // miss allocates survives: the entry) and shrinks it only once the process idles.
    await new Promise((r) => setTimeout(r, REST_MS));
    const rssRest = await rssOf(full.pid);
    const mRest = await full.memory();
    for (const [when, rss] of [["right after the fill", rssFull], ["at rest", rssRest]] as const) {
      checks.push({
        name: `full cache: Cachely RSS with ${m1.entries} entries, ${when}`,
        want: "< 400 MB",
        got: `${mib(rss)} MiB`,
        pass: rss < 400 * 1024 * 1024,
      });
    }

    const added = m1.entries - m0.entries;
    const per = (a: number, b: number) => ((b - a) / added).toFixed(0);
    const space = (m: typeof m0, s: string) => mib(m.spaces?.[s] ?? 0);
    notes.push(
      `Two fresh Cachely processes (same configuration as the shared one; V8 flags ${benchV8Flags()}): one filled with ${added} entries in ${
        fillSec.toFixed(0)
      } s (${fills} wrk runs of unique /miss/ paths; ${
        mib(m1.cacheBytes)
      } MiB as the LRU counts them), one left with only /data.json; the hit rows are medians of interleaved rounds against the two. RSS at start: ${
        mib(start.full)
      } and ${mib(start.empty)} MiB; the shared Cachely process held ${
        mib(sharedRss)
      } MiB at this point (every miss of the earlier scenarios).`,
      `Filled process after a full GC: RSS ${mib(rssFull)} MiB; heap used ${mib(m0.heapUsed)} → ${
        mib(m1.heapUsed)
      } MiB (**${per(m0.heapUsed, m1.heapUsed)} heap bytes per entry**), external (bodies) ${
        mib(m0.external)
      } → ${mib(m1.external)} MiB (${
        per(m0.external, m1.external)
      } bytes per entry); V8 new space ${space(m0, "new_space")} → ${
        space(m1, "new_space")
      } MiB, old space ${space(m0, "old_space")} → ${space(m1, "old_space")} MiB committed${
        m1.malloc && m0.malloc
          ? `; malloc in use ${mib(m0.malloc.inUse)} → ${
            mib(m1.malloc.inUse)
          } MiB, free in its arenas ${mib(m1.malloc.free)} MiB`
          : ""
      }.`,
      `At rest (${REST_MS / 1000} s idle after the hit rounds): RSS ${
        mib(rssRest)
      } MiB, V8 new space ${space(mRest, "new_space")} MiB, old space ${
        space(mRest, "old_space")
      } MiB committed. "Right after the fill" is measured after a full GC but while V8's young generation still has the size the burst of misses grew it to.`,
      instrEmpty !== null && instrFull !== null
        ? `perf: ${
          instrEmpty.toFixed(0)
        } instructions per hit (user space, whole process) with an empty cache, ${
          instrFull.toFixed(0)
        } with it full.`
        : "perf was not usable here, so no instruction counts.",
    );
    await full.child.stop();
    await empty.child.stop();

    // Churn: a cache at its bound, where every miss evicts an entry. The slabs of evicted
    // bodies die and new ones are allocated all the time, which a one-off fill never shows.
    const churn = await ctx.startCachely({ EDGE_CACHE_MAX_BYTES: String(CHURN_BOUND) });
    const churnT = { ...churn.api, name: "cachely, churn" };
    let churned = 0;
    for (let i = 0; i < CHURN_RUNS; i++) {
      const w = await ctx.wrk(churnT, "/miss/", {
        uniquePrefix: `/miss/churn-${i}-`,
        durationSec: 5,
      });
      churned += w.requests;
    }
    const mc = await churn.memory();
    const rssChurn = await rssOf(churn.pid);
    await churn.child.stop();
    checks.push({
      name: `cache at its bound: RSS after ${churned} misses through ${
        mib(CHURN_BOUND)
      } MiB (context)`,
      want: "< 400 MB",
      got: `${mib(rssChurn)} MiB`,
      pass: rssChurn < 400 * 1024 * 1024,
    });
    notes.push(
      `Cache at its bound: a third fresh process with EDGE_CACHE_MAX_BYTES ${
        mib(CHURN_BOUND)
      } MiB took ${churned} unique misses (${CHURN_RUNS} wrk runs of 5 s), so all but the last ${mc.entries} were evicted; after a full GC: RSS ${
        mib(rssChurn)
      } MiB, heap ${mib(mc.heapTotal)} MiB committed, external (bodies) ${mib(mc.external)} MiB${
        mc.malloc
          ? `, malloc in use ${mib(mc.malloc.inUse)} MiB and free in its arenas ${
            mib(mc.malloc.free)
          } MiB, mmapped ${mib(mc.malloc.hblkhd)} MiB`
          : ""
      }.`,
    );

    // Zipf over 10,000 keys on the shared Cachely: fill every key on both, then interleave.
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
