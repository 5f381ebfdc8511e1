/**
 * The hit path of two source trees side by side, as production starts them: each tree's
 * `deno run -A main.ts` (bench/main_proc.ts of that tree: fresh PostgreSQL database, real KV
 * file, tenant `bench` created over HTTP) against one origin, then interleaved wrk rounds of
 * API hits (`/~api/data.json`), medians of req/s and p99 per tree.
 *
 *   deno run -A bench/trees_ab.ts [-r rounds] [-d seconds] [--deno PATH] A_DIR B_DIR
 *
 * A before/after measurement of a change: A a worktree at the commit before, B the tree after.
 * Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server to create databases on).
 */
import { median } from "./helpers.ts";
import { runWrk } from "./wrk.ts";
import type { WrkResult } from "./types.ts";
import { spawnReady } from "./proc.ts";

type WithMain = (
  base: string,
  origin: string,
  fn: (p: { api: { base: string; host?: string } }) => Promise<void>,
  env?: Record<string, string>,
  deno?: string[],
) => Promise<void>;

/**
 * The bench tenant is on the free plan: its 500,000 requests a month ran out in the fourth
 * 5 s round, and every answer after was a 429 (the same in both trees).
 */
const NO_QUOTAS = { QUOTAS: "off" };

if (import.meta.main) {
  const args = [...Deno.args];
  let rounds = 5, duration = 5, deno = Deno.execPath();
  const dirs: string[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "-r") rounds = Number(args.shift());
    else if (a === "-d") duration = Number(args.shift());
    else if (a === "--deno") deno = args.shift()!;
    else dirs.push(a.replace(/\/$/, ""));
  }
  if (dirs.length !== 2) throw new Error("usage: trees_ab.ts [-r N] [-d S] [--deno PATH] A B");
  const db = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!db) throw new Error("set BENCH_DATABASE_URL or TEST_DATABASE_URL");
  const here = new URL(".", import.meta.url).pathname;
  const origin = await spawnReady(Deno.execPath(), ["run", "-A", `${here}origin.ts`]);
  const originUrl = `http://127.0.0.1:${origin.ready.port}`;
  const [a, b] = await Promise.all(
    dirs.map(async (d) => (await import(`${d}/bench/main_proc.ts`)).withMainProcess as WithMain),
  );
  const tmp = await Deno.makeTempDir({ prefix: "cachely-trees-" });
  const results = dirs.map(() => [] as WrkResult[]);
  try {
    await a(
      db,
      originUrl,
      (pa) =>
        b(
          db,
          originUrl,
          async (pb) => {
            const targets = [pa, pb];
            for (const t of targets) { // fill: one miss each
              await (await fetch(`${t.api.base}/~api/data.json`, {
                headers: { host: t.api.host! },
              }))
                .arrayBuffer();
            }
            for (let r = 0; r < rounds; r++) {
              for (const [i, t] of targets.entries()) {
                const res = await runWrk(
                  tmp,
                  {
                    name: dirs[i],
                    base: t.api.base,
                    host: t.api.host,
                    path: () => "/~api/data.json",
                  },
                  "/~api/data.json",
                  { connections: 64, durationSec: duration },
                );
                results[i].push(res);
                console.log(
                  `round ${r + 1} ${dirs[i]}: ${res.rps.toFixed(0)} req/s p99 ${
                    res.p99Ms.toFixed(2)
                  } ms errors ${res.errors}`,
                );
              }
            }
          },
          NO_QUOTAS,
          [deno],
        ),
      NO_QUOTAS,
      [deno],
    );
  } finally {
    await origin.stop();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  const med = results.map((rs) => median(rs.map((r) => r.rps)));
  for (const [i, rs] of results.entries()) {
    console.log(
      `median ${dirs[i]}: ${med[i].toFixed(0)} req/s p99 ${
        median(rs.map((r) => r.p99Ms)).toFixed(2)
      } ms`,
    );
  }
  console.log(`B/A throughput: ${(med[1] / med[0]).toFixed(2)}`);
}
