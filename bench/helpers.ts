/** Small helpers shared by scenarios. */
import type { BenchContext, ResultRow, Target, WrkOptions, WrkResult } from "./types.ts";
import { rawGet } from "./http1.ts";

/**
 * Runs wrk `ctx.rounds` times and reports the best figure of each kind: the highest
 * throughput and the lowest p50 and p99 seen in any round. The same rule applies to
 * every target, and on a shared machine it filters out rounds that lost the CPU to
 * other processes (the `[bench]` log lines keep every round).
 */
export async function bestOf(
  ctx: BenchContext,
  target: Target,
  originPath: string,
  opts: WrkOptions = {},
): Promise<WrkResult> {
  const all: WrkResult[] = [];
  for (let i = 0; i < ctx.rounds; i++) {
    const r = await ctx.wrk(target, originPath, opts);
    ctx.log(
      `  ${target.name} ${originPath} c=${opts.connections ?? ctx.connections}: ${
        r.rps.toFixed(0)
      } req/s p50 ${r.p50Ms.toFixed(3)} ms p99 ${r.p99Ms.toFixed(3)} ms errors ${r.errors}`,
    );
    all.push(r);
  }
  const best = all.reduce((a, b) => (b.rps > a.rps ? b : a));
  return {
    ...best,
    p50Ms: Math.min(...all.map((r) => r.p50Ms)),
    p99Ms: Math.min(...all.map((r) => r.p99Ms)),
    errors: all.reduce((n, r) => n + r.errors, 0),
  };
}

export function row(kase: string, target: string, r: WrkResult, note?: string): ResultRow {
  return { case: kase, target, rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.errors, note };
}

/** One request to a target, with its Host header; returns status and a header. */
export async function probe(
  target: Target,
  originPath: string,
  header: string,
): Promise<{ status: number; value: string | null }> {
  const res = await rawGet(target.base, target.path(originPath), target.host);
  return { status: res.status, value: res.headers.get(header) };
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
