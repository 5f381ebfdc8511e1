/**
 * Interleaved A/B rounds with wrk against already running servers, medians printed:
 *
 *   deno run -A bench/ab.ts [-r rounds] [-d seconds] [-c connections] NAME=URL[@HOST] …
 *
 * e.g. `cachely=http://127.0.0.1:18601/~api/data.json@bench.localhost:18601
 * floor=http://127.0.0.1:18602/same/data.json`. Round i runs every target once, in turn,
 * so a burst of load from other processes lands on all of them alike.
 */
import { median } from "./helpers.ts";
import { runWrk } from "./wrk.ts";
import type { WrkResult } from "./types.ts";

if (import.meta.main) {
  const args = [...Deno.args];
  let rounds = 5, duration = 5, connections = 64;
  const targets: { name: string; base: string; path: string; host?: string }[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "-r") rounds = Number(args.shift());
    else if (a === "-d") duration = Number(args.shift());
    else if (a === "-c") connections = Number(args.shift());
    else {
      const [name, rest] = [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)];
      const [url, host] = rest.split("@");
      const u = new URL(url);
      targets.push({ name, base: u.origin, path: u.pathname + u.search, host });
    }
  }
  const tmp = await Deno.makeTempDir({ prefix: "cachely-ab-" });
  const all = new Map<string, WrkResult[]>(targets.map((t) => [t.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const t of targets) {
      const res = await runWrk(
        tmp,
        {
          name: "origin",
          base: t.base,
          host: t.host,
          path: () => t.path,
        },
        t.path,
        {
          connections,
          durationSec: duration,
          // a path ending in "/" gets a unique suffix per request (cache misses)
          ...(t.path.endsWith("/") ? { uniquePrefix: t.path } : {}),
        },
      );
      all.get(t.name)!.push(res);
      console.log(
        `round ${r + 1} ${t.name}: ${res.rps.toFixed(0)} req/s p50 ${res.p50Ms.toFixed(3)} p99 ${
          res.p99Ms.toFixed(3)
        } errors ${res.errors}`,
      );
    }
  }
  await Deno.remove(tmp, { recursive: true });
  for (const [name, rs] of all) {
    console.log(
      `median ${name}: ${median(rs.map((r) => r.rps)).toFixed(0)} req/s p50 ${
        median(rs.map((r) => r.p50Ms)).toFixed(3)
      } p99 ${median(rs.map((r) => r.p99Ms)).toFixed(3)}`,
    );
  }
}
