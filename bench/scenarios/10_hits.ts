/** Cache hits: the 2 KB JSON and the 200 KB image, already cached, Cachely vs nginx. */
import type { Check, ResultRow, Scenario } from "../types.ts";
import { bestOf, probe, ratio, row } from "../helpers.ts";

const CASES = [
  { label: "hit, 2 KB JSON", path: "/data.json" },
  { label: "hit, 200 KB image", path: "/image.jpg" },
];

export const scenario: Scenario = {
  name: "hits",
  async run(ctx) {
    const { cachely, nginx, origin } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const notes: string[] = [];
    for (const c of CASES) {
      // Fill both caches, then make sure the measured requests really are hits.
      for (let i = 0; i < 2; i++) {
        await probe(cachely, c.path, "x-cachely-cache");
        await probe(nginx, c.path, "x-cache");
      }
      const ch = await probe(cachely, c.path, "x-cachely-cache");
      const nh = await probe(nginx, c.path, "x-cache");
      if (ch.value !== "HIT" || nh.value !== "HIT") {
        throw new Error(`${c.path} is not a hit: cachely ${ch.value}, nginx ${nh.value}`);
      }
      // JIT warm-up, not reported.
      await ctx.wrk(nginx, c.path, { durationSec: 2 });
      await ctx.wrk(cachely, c.path, { durationSec: 2 });
      await ctx.wrk(origin, c.path, { durationSec: 2 });
      const n = await bestOf(ctx, nginx, c.path);
      const y = await bestOf(ctx, cachely, c.path);
      // The origin is a bare Deno.serve answering from memory: the ceiling of the runtime.
      const o = await bestOf(ctx, origin, c.path);
      rows.push(
        row(c.label, "nginx", n),
        row(c.label, "cachely", y),
        row(c.label, "origin direct", o, "bare Deno.serve, body from memory"),
      );
      const tput = ratio(y.rps, n.rps);
      const p99 = ratio(y.p99Ms, n.p99Ms);
      checks.push({
        name: `${c.label}: throughput vs nginx`,
        want: "≥ 1.00×",
        got: `${tput.toFixed(2)}×`,
        pass: tput >= 1,
      });
      checks.push({
        name: `${c.label}: p99 vs nginx`,
        want: "≤ 1.50×",
        got: `${p99.toFixed(2)}× (${y.p99Ms.toFixed(3)} vs ${n.p99Ms.toFixed(3)} ms)`,
        pass: p99 <= 1.5,
      });
    }
    notes.push(
      `Both caches were filled first; a probe confirmed \`x-cachely-cache: HIT\` and nginx \`X-Cache: HIT\` before each measurement.`,
      `${ctx.connections} keep-alive connections, wrk on the same two-core machine as the server under test.`,
      "`origin direct` is the benchmark origin itself: a bare `Deno.serve` returning the body from memory with no proxy logic. For the 2 KB JSON it is the ceiling of a Deno HTTP server on this machine; for the 200 KB image the row is context only (in the first recorded run the origin measured below Cachely; the cause was not pinned down).",
    );
    return { title: "Cache hits", rows, checks, notes };
  },
};
