/**
 * Memory of the process Deno Deploy runs: `deno run -A main.ts` on PostgreSQL with
 * default settings (bench/main_proc.ts) takes MISSES distinct 2 KB misses from the bench origin
 * (the cache fills to its bound and then evicts), then rests. RSS is read from /proc every
 * 100 ms throughout, and nothing forces a collection: the peak is the highest sample, "at rest"
 * the last one after REST_MS idle.
 *
 *   BENCH_DATABASE_URL=postgres://… deno run -A bench/main_memory.ts [deno-wrapper]
 *
 * Environment: MEMORY_MISSES (default 300000), MEMORY_REST_MS (default 30000), and any
 * EDGE_* variable and KV_PATH, passed on to main.ts (e.g. EDGE_MEMORY_LIMIT_MB, EDGE_CACHE_MAX_BYTES).
 * A wrapper (an executable run as `<wrapper> run -A main.ts`) starts main.ts another way, e.g.
 * with V8 flags for a diagnostic run; without one it is this runtime, as Deploy starts it.
 */
import { withBenchMain } from "./main_proc.ts";
import { runWrk } from "./wrk.ts";
import { mib, rssOf } from "./rss.ts";

export type MainMemory = {
  misses: number;
  seconds: number;
  /** Highest RSS sample while taking misses and resting, bytes. */
  peak: number;
  /** RSS after the rest, bytes. */
  rest: number;
  /** RSS once listening with its tenant, before any traffic. */
  idle: number;
  /** RSS after each wrk run: [misses so far, bytes]. */
  trace: [number, number][];
};

/**
 * Drives `misses` distinct misses through a running main.ts (`pid`, its api target) and
 * samples its RSS from /proc every 100 ms until `restMs` after the last one.
 */
export async function measureMisses(
  pid: number,
  api: Parameters<typeof runWrk>[1],
  misses: number,
  restMs: number,
  log: (m: string) => void = () => {},
): Promise<MainMemory> {
  const tmp = await Deno.makeTempDir({ prefix: "cachely-main-memory-" });
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssOf(pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const idle = await rssOf(pid);
  const trace: [number, number][] = [];
  const t0 = performance.now();
  let done = 0;
  try {
    for (let run = 0; done < misses; run++) {
      const left = misses - done;
      const w = await runWrk(tmp, api, "/miss/", {
        connections: 64,
        durationSec: 10,
        uniquePrefix: `/miss/m${run}-`,
        uniqueKeys: left,
      });
      if (w.errors > 0) throw new Error(`${w.errors} errors in a wrk run`);
      done += Math.min(left, w.requests);
      trace.push([done, await rssOf(pid)]);
      log(`${done} misses, RSS ${mib(trace.at(-1)![1])} MiB, peak ${mib(peak)} MiB`);
    }
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, restMs));
    const rest = await rssOf(pid);
    return { misses: done, seconds, peak: Math.max(peak, rest), rest, idle, trace };
  } finally {
    sampling = false;
    await sampler;
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const misses = Number(Deno.env.get("MEMORY_MISSES") ?? 300_000);
  const restMs = Number(Deno.env.get("MEMORY_REST_MS") ?? 30_000);
  const env = {
    // The bench tenant is on the free plan: 500,000 requests a month, which a fast run's last
    // wrk run (the remaining keys' hits) passed on 2.9.6, answering 429s.
    QUOTAS: "off",
    ...Object.fromEntries(
      Object.entries(Deno.env.toObject()).filter(([k]) => k.startsWith("EDGE_") || k === "KV_PATH"),
    ),
  };
  const m = await withBenchMain(
    (p) => measureMisses(p.pid, p.api, misses, restMs, console.log),
    env,
  );
  console.log(
    `main.ts, ${m.misses} misses in ${m.seconds.toFixed(0)} s: idle ${mib(m.idle)} MiB, peak ${
      mib(m.peak)
    } MiB, at rest (${restMs / 1000} s) ${mib(m.rest)} MiB`,
  );
}
