/**
 * Cache hits of the 2 KB JSON and the 200 KB image, Cachely against nginx proxy_cache and
 * the runtime's floors (bench/floor.ts): a bare Deno.serve with one header, one sending
 * exactly the header set Cachely sent on the probed hit, and that response as a clone of a
 * prebuilt Response (the runtime's cheapest way to send it, and what Cachely's hit does). The JSON is also measured through
 * nginx as the CDN in front of Cachely's CDN-offload tenant. Interleaved rounds, medians.
 */
import type { Check, ResultRow, Scenario } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { rawGet } from "../http1.ts";
import { instructionsPerRequest } from "../instructions.ts";

const CASES = [
  { label: "hit, 2 KB JSON", path: "/data.json", cdn: true, vsNginx: 0.8, vsSame: 0.9 },
  { label: "hit, 200 KB image", path: "/image.jpg", cdn: false, vsNginx: 1.0, vsSame: null },
];

/** What every server adds itself; the floor sends the rest. */
const SERVER_ADDED = new Set(["date", "content-length", "connection", "keep-alive"]);

export const scenario: Scenario = {
  name: "hits",
  async run(ctx) {
    const { cachely, nginx, floorOne, floorSame, floorClone, floorCloneRead, cdn, cachelyCdn } =
      ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const notes: string[] = [];
    for (const c of CASES) {
      // Fill the caches, then make sure the measured requests really are hits.
      for (let i = 0; i < 2; i++) {
        await probe(cachely, c.path, "x-cachely-cache");
        await probe(nginx, c.path, "x-cache");
        if (c.cdn) await probe(cdn, c.path, "x-cache");
      }
      await new Promise((r) => setTimeout(r, 1100)); // Age is then above 0, as on most hits
      // A loaded machine can time a fill out (502/504): try a few times before giving up.
      let hit = await rawGet(cachely.base, cachely.path(c.path), cachely.host);
      let nh = await probe(nginx, c.path, "x-cache");
      for (
        let i = 0;
        i < 5 && (hit.headers.get("x-cachely-cache") !== "HIT" || nh.value !== "HIT");
        i++
      ) {
        await new Promise((r) => setTimeout(r, 1100));
        hit = await rawGet(cachely.base, cachely.path(c.path), cachely.host);
        nh = await probe(nginx, c.path, "x-cache");
      }
      if (hit.headers.get("x-cachely-cache") !== "HIT" || nh.value !== "HIT") {
        throw new Error(
          `${c.path} is not a hit: cachely ${hit.status} ${
            hit.headers.get("x-cachely-cache")
          }, nginx ${nh.value}`,
        );
      }
      const sent: [string, string][] = [];
      hit.headers.forEach((v, k) => {
        if (!SERVER_ADDED.has(k)) sent.push([k, v]);
      });
      await ctx.registerSameHeaders(c.path, sent);
      notes.push(
        `${c.label}: Cachely's hit sent ${sent.length} headers besides date and content-length: ${
          sent.map(([k]) => `\`${k}\``).join(", ")
        }; the same-headers floor sends exactly these.`,
      );
      const runs = [
        { label: c.label, target: nginx, path: c.path },
        { label: c.label, target: cachely, path: c.path },
        { label: c.label, target: floorSame, path: c.path },
        { label: c.label, target: floorOne, path: c.path },
        { label: c.label, target: floorClone, path: c.path },
        { label: c.label, target: floorCloneRead, path: c.path },
      ];
      if (c.cdn) {
        const cd = await probe(cdn, c.path, "x-cache");
        const direct = await probe(cachelyCdn, c.path, "cdn-cache-control");
        notes.push(
          `CDN stand-in: nginx in front of Cachely's CDN-offload tenant answered \`X-Cache: ${cd.value}\`; Cachely sent \`CDN-Cache-Control: ${direct.value}\` to it.`,
        );
        runs.push({ label: `${c.label}, through the CDN`, target: cdn, path: c.path });
      }
      for (const r of runs) await ctx.wrk(r.target, r.path, { durationSec: 1 }); // JIT warm-up
      const res = await interleaved(ctx, runs);
      runs.forEach((r, i) => rows.push(row(r.label, r.target.name, res[i])));
      const [n, y, same, , cloned, clonedRead] = res;
      checks.push(ratioCheck(`${c.label}: throughput vs nginx`, ratio(y.rps, n.rps), c.vsNginx));
      if (c.vsSame !== null) {
        checks.push(
          ratioCheck(
            `${c.label}: throughput vs the same-headers floor`,
            ratio(y.rps, same.rps),
            c.vsSame,
          ),
          ratioCheck(
            `${c.label}: throughput vs the cloned same-headers floor`,
            ratio(y.rps, cloned.rps),
            c.vsSame,
          ),
          ratioCheck(
            `${c.label}: throughput vs the cloned floor that reads the validators (context)`,
            ratio(y.rps, clonedRead.rps),
            c.vsSame,
          ),
          ratioCheck(
            `${c.label}: the runtime's own cloned floor vs nginx (context)`,
            ratio(cloned.rps, n.rps),
            c.vsNginx,
          ),
        );
      }
      // Instructions per request (perf, user space): steady where requests/s are not.
      const tmp = await Deno.makeTempDir({ prefix: "cachely-hits-" });
      const perf = async (pid: number, t: typeof cachely) =>
        (await instructionsPerRequest(tmp, pid, t, c.path, { connections: 16, durationSec: 3 }))
          .perRequest;
      const instr: (number | null)[] = [];
      for (
        const [pid, t] of [[ctx.cachelyPid, cachely], [ctx.floorPid, floorSame], [
          ctx.floorPid,
          floorOne,
        ]] as const
      ) {
        instr.push(await perf(pid, t).catch(() => null)); // one at a time: two share a process
      }
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
      if (instr.every((x) => x !== null)) {
        const [ci, si, oi] = instr as number[];
        notes.push(
          `${c.label}, perf instructions per request (user space, whole process): Cachely ${
            ci.toFixed(0)
          }, same-headers floor ${si.toFixed(0)}, one-header floor ${
            oi.toFixed(0)
          }; the floor's share of Cachely's count: ${(si / ci).toFixed(2)}×.`,
        );
      }
      const p99 = ratio(y.p99Ms, n.p99Ms);
      checks.push({
        name: `${c.label}: p99 vs nginx`,
        want: "≤ 1.50×",
        got: `${p99.toFixed(2)}× (${y.p99Ms.toFixed(3)} vs ${n.p99Ms.toFixed(3)} ms)`,
        pass: p99 <= 1.5,
      });
    }
    notes.push(
      `${ctx.connections} keep-alive connections, wrk on the same two-core machine as the server under test.`,
      "The floors are bare `Deno.serve` processes answering from memory with no proxy logic: `floor, one header` sends only content-type (Deno's fastest response path), `floor, same headers` sends Cachely's hit header set as a prebuilt Headers object through the Response constructor, `floor, same headers, cloned` sends it as a clone of a prebuilt Response with Age set per request (the cheapest way the runtime offers; Cachely's hit does the same), `floor, cloned, validators read` reads If-None-Match, If-Modified-Since and Origin first, as Cachely must (any request header read makes Deno.serve copy the header list and finish through a promise).",
    );
    return { title: "Cache hits", rows, checks, notes };
  },
};
