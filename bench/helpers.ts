/** Small helpers shared by scenarios. */
import type { BenchContext, Check, ResultRow, Target, WrkOptions, WrkResult } from "./types.ts";
import { rawGet } from "./http1.ts";
import { cpuMicros } from "./rss.ts";

export function row(kase: string, target: string, r: WrkResult, note?: string): ResultRow {
  return { case: kase, target, rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.errors, note };
}

/** One request to a target, with its Host header; returns status and a header. */
export async function probe(
  target: Target,
  originPath: string,
  header: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; value: string | null }> {
  const res = await rawGet(target.base, target.path(originPath), target.host, headers);
  return { status: res.status, value: res.headers.get(header) };
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export type Run = {
  label: string;
  target: Target;
  path: string;
  opts?: WrkOptions;
  /** Also measure this process's CPU time per request (from /proc) around each run. */
  cpuPid?: number;
};

/**
 * Runs every entry once per round, in turn, for ctx.rounds rounds, and reports per entry
 * the median of the rounds (requests/s, p50, p99 each; errors summed). Interleaving puts
 * a burst of load from other processes on all targets alike.
 */
export async function interleaved(ctx: BenchContext, runs: Run[]): Promise<WrkResult[]> {
  const all: WrkResult[][] = runs.map(() => []);
  for (let r = 0; r < ctx.rounds; r++) {
    for (const [i, x] of runs.entries()) {
      const cpu0 = x.cpuPid === undefined ? 0 : await cpuMicros(x.cpuPid);
      const w = await ctx.wrk(x.target, x.path, x.opts);
      if (x.cpuPid !== undefined) w.cpuUs = ((await cpuMicros(x.cpuPid)) - cpu0) / w.requests;
      ctx.log(
        `  round ${r + 1} ${x.label} (${x.target.name}): ${w.rps.toFixed(0)} req/s p50 ${
          w.p50Ms.toFixed(3)
        } ms p99 ${w.p99Ms.toFixed(3)} ms errors ${w.errors}${
          w.cpuUs === undefined ? "" : ` cpu ${w.cpuUs.toFixed(1)} µs/request`
        }`,
      );
      all[i].push(w);
    }
  }
  return all.map((ws) => ({
    requests: ws.reduce((n, w) => n + w.requests, 0),
    durationSec: ws.reduce((n, w) => n + w.durationSec, 0),
    rps: median(ws.map((w) => w.rps)),
    p50Ms: median(ws.map((w) => w.p50Ms)),
    p99Ms: median(ws.map((w) => w.p99Ms)),
    meanMs: median(ws.map((w) => w.meanMs)),
    errors: ws.reduce((n, w) => n + w.errors, 0),
    cpuUs: ws[0].cpuUs === undefined ? undefined : median(ws.map((w) => w.cpuUs!)),
  }));
}

/** A "≥ want×" or "≤ want×" target for a ratio. */
export function ratioCheck(name: string, got: number, want: number, atMost = false): Check {
  return {
    name,
    want: `${atMost ? "≤" : "≥"} ${want.toFixed(2)}×`,
    got: `${got.toFixed(2)}×`,
    pass: atMost ? got <= want : got >= want,
  };
}
