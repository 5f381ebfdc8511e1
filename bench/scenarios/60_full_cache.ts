/**
 * A full cache stays fast and within its memory: two fresh Cachely processes side by side, one
 * filled with 100,000 distinct 2 KB entries and one left empty, then hits of one key against
 * both in interleaved rounds (target: full ≥ 0.9× empty), heap and external bytes per entry
 * (in-process context: bench/cachely_server.ts, a forced GC), and a Zipf workload over 10,000
 * keys (80/20) against nginx. The memory targets are measured on the process Deno Deploy runs:
 * `deno run -A main.ts` with default settings on PostgreSQL and a real KV file
 * (bench/main_proc.ts) takes 300,000 distinct 2 KB misses, its cache at its bound and
 * evicting; RSS is read from /proc every 100 ms without forcing a collection, peak and at rest
 * (bench/main_memory.ts). Needs BENCH_DATABASE_URL or TEST_DATABASE_URL for that part.
 */
import type { Check, ResultRow, Scenario, WrkResult } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { instructionsPerRequest } from "../instructions.ts";
import { mib, rssOf } from "../rss.ts";
import { benchV8Flags } from "../cachely_proc.ts";
import { withMainProcess } from "../main_proc.ts";
import { measureMisses } from "../main_memory.ts";

const ENTRIES = 100_000;
const ZIPF = { prefix: "/miss/zipf-", keys: 10_000 };
/** Distinct misses main.ts takes: its default bound fills at ~100,000 and then evicts. */
const CHURN_MISSES = 300_000;
/** Deno Deploy's isolate limit is 512 MB; the target leaves room for requests in flight. */
const RSS_TARGET = 400 * 1024 * 1024;
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
        name: `full cache: bench server RSS with ${m1.entries} entries, ${when} (context)`,
        want: "< 400 MB",
        got: `${mib(rss)} MiB`,
        pass: rss < RSS_TARGET,
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

    // Churn on the real process: a cache at its bound, where every miss evicts an entry. The
    // slabs of evicted bodies die and new ones are allocated all the time, which a one-off fill
    // never shows; and nothing here forces a collection, as nothing does in production.
    const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
    if (!base) {
      notes.push("main.ts memory: skipped (no BENCH_DATABASE_URL or TEST_DATABASE_URL).");
    } else {
      const m = await withMainProcess(
        base,
        ctx.cachelyEnv.ORIGIN,
        (p) => measureMisses(p.pid, p.api, CHURN_MISSES, REST_MS, ctx.log),
      );
      for (const [when, rss] of [["peak", m.peak], [`at rest (${REST_MS / 1000} s)`, m.rest]]) {
        checks.push({
          name: `main.ts on PostgreSQL, ${m.misses} misses, default settings: RSS ${when}`,
          want: "≤ 400 MB",
          got: `${mib(rss as number)} MiB`,
          pass: (rss as number) <= RSS_TARGET,
        });
      }
      notes.push(
        `main.ts as Deno Deploy runs it (\`deno run -A main.ts\`, no flags, no malloc settings; PostgreSQL, a KV file, default EDGE_CACHE_MAX_BYTES) took ${m.misses} distinct 2 KB misses in ${
          m.seconds.toFixed(0)
        } s (10 s wrk runs of unique paths, 64 connections): RSS idle with its tenant ${
          mib(m.idle)
        } MiB, peak ${mib(m.peak)} MiB (sampled every 100 ms), at rest ${
          mib(m.rest)
        } MiB; after each run: ${
          m.trace.map(([n, r]) => `${n} → ${mib(r)}`).join(", ")
        } MiB. Read from /proc only: nothing forces a collection.`,
      );
    }

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
