/**
 * What a hit burst leaves in V8's old generation: starts `deno run -A main.ts`
 * (bench/main_proc.ts) under the inspector, warms one API key, starts V8's sampling heap
 * profiler (it drops a sample when its object is collected, by either GC), runs wrk hits of
 * that key for SECONDS, then reads the profile. What is left is what was promoted and not yet
 * collected by a full GC (plus the little still in flight): the allocation sites that make the
 * old generation grow during hits. Prints bytes per hit by allocating function, and the RSS.
 *
 *   BENCH_DATABASE_URL=postgres://... deno run -A bench/hit_survivors.ts [deno-wrapper]
 *
 * The wrapper runs `<wrapper> run -A main.ts` with `--inspect=127.0.0.1:9339` after `run`
 * (as for bench/heap_snapshot.ts). With GC_TRACE=1 no inspector is used: the wrapper adds
 * `--v8-flags=--trace-gc-nvp` instead (and any flag to compare, e.g.
 * `--no-allocation-site-pretenuring`), and the tool prints each scavenge during the hits: the
 * bytes that survived it and the bytes it promoted (bench/ANALYSIS.md "2.5.7's hit burst").
 */
import { withBenchMain } from "./main_proc.ts";
import { cdp, inspectorUrl, shortUrl } from "./inspector.ts";
import { runWrk } from "./wrk.ts";
import { mib, rssOf } from "./rss.ts";

type Node = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
};

/** Self bytes by the frame that allocated, named by function and place. */
export function bySite(root: Node): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (n: Node, parent: string) => {
    const f = n.callFrame;
    const name = `${f.functionName || "(anon)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
    const key = f.url === "" ? `${name} < ${parent}` : name;
    if (n.selfSize > 0) out.set(key, (out.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, name);
  };
  walk(root, "(root)");
  return out;
}

/** The scavenges in V8's `--trace-gc-nvp` output after `fromMs`: capacity, survived, promoted. */
export function scavenges(output: string, fromMs: number): string[] {
  const out: string[] = [];
  for (const m of output.matchAll(/(\d+) ms: GC: \{([^}]*)/g)) {
    const f = Object.fromEntries(
      [...m[2].matchAll(/"(\w+)":"?([^,"]*)/g)].map((x) => [x[1], x[2]]),
    );
    if (Number(m[1]) < fromMs || f.gc !== "s") continue;
    const kib = (k: string) => Math.round(Number(f[k] ?? 0) / 1024);
    out.push(
      `${m[1]} ms: new space ${kib("new_space_capacity") >> 10} MiB, survived ${
        kib("new_space_survived")
      } KiB, promoted ${kib("promoted")} KiB, objects ${kib("end_object_size") >> 10} MiB`,
    );
  }
  return out;
}

/** Bytes per hit left after the hits, by the frame that allocated them (largest first). */
async function promotedSites(seconds: number, hits: (s: number) => Promise<{ requests: number }>) {
  const ins = cdp(await inspectorUrl(9339));
  await ins.send("HeapProfiler.enable");
  await ins.send("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    // Kept when a full GC collects them, dropped when a scavenge does: what was promoted.
    includeObjectsCollectedByMajorGC: true,
  });
  const w = await hits(seconds);
  const { profile } = await ins.send<{ profile: { head: Node } }>("HeapProfiler.stopSampling");
  ins.close();
  const sites = [...bySite(profile.head)].sort((a, b) => b[1] - a[1]);
  const total = sites.reduce((a, [, b]) => a + b, 0);
  console.log(`${w.requests} hits; left ${(total / w.requests).toFixed(0)} B per hit`);
  for (const [k, b] of sites.slice(0, 30)) {
    console.log(`${(b / w.requests).toFixed(1).padStart(8)} B/hit  ${k}`);
  }
}

if (import.meta.main) {
  const seconds = Number(Deno.env.get("SECONDS") ?? 10);
  await withBenchMain(async (p) => {
    const tmp = await Deno.makeTempDir();
    const hits = (s: number) =>
      runWrk(tmp, p.api, "/data.json", { connections: 64, durationSec: s });
    await hits(3); // warm: the template, V8's optimisation
    const before = await rssOf(p.pid);
    const from = [...p.output.join("").matchAll(/(\d+) ms: /g)].at(-1)?.[1]; // the trace so far
    if (Deno.env.get("GC_TRACE") === "1") {
      const w = await hits(seconds);
      console.log(scavenges(p.output.join(""), Number(from ?? 0)).join("\n"));
      console.log(`${w.requests} hits in ${w.durationSec.toFixed(1)} s`);
    } else await promotedSites(seconds, hits);
    console.log(`RSS ${mib(before)} MiB before the hits, ${mib(await rssOf(p.pid))} after`);
  }, { QUOTAS: "off" });
}
