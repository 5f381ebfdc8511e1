/**
 * What main.ts's V8 heap holds: starts `deno run -A main.ts` (bench/main_proc.ts) under the
 * inspector, takes MISSES distinct 2 KB misses, takes a heap snapshot over the inspector (a
 * snapshot collects garbage first, so this is the live heap) and prints its self sizes by
 * node type and the largest strings and object kinds.
 *
 *   BENCH_DATABASE_URL=postgres://… deno run -A bench/heap_snapshot.ts [deno-wrapper]
 *
 * The wrapper is an executable run as `<wrapper> run -A main.ts` that adds
 * `--inspect=127.0.0.1:9339` after `run` (main_proc.ts puts runtime arguments before `run`).
 */
import { withBenchMain } from "./main_proc.ts";
import { cdp, inspectorUrl } from "./inspector.ts";
import { runWrk } from "./wrk.ts";
import { mib, rssOf } from "./rss.ts";

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
};

async function takeSnapshot(port: number): Promise<Snapshot> {
  const chunks: string[] = [];
  const ins = cdp(await inspectorUrl(port), (method, params) => {
    if (method === "HeapProfiler.addHeapSnapshotChunk") {
      chunks.push((params as { chunk: string }).chunk);
    }
  });
  await ins.send("HeapProfiler.enable");
  await ins.send("HeapProfiler.takeHeapSnapshot"); // answered after its last chunk
  ins.close();
  return JSON.parse(chunks.join(""));
}

/** Module sources by origin; other strings by size. */
function stringKind(text: string, size: number): string {
  if (size < 2048) return "strings under 2 KB";
  if (text.includes("sourceMappingURL=data:")) {
    return size > text.length * 1.5 ? "app modules (UTF-16)" : "app modules (Latin-1)";
  }
  if (text.includes("the Deno authors")) return "Deno's own modules";
  if (
    /^(import |export |\(function \(exports|"use strict"|\/\*\*? ?@license|var |const |let )/.test(
      text,
    )
  ) {
    return "npm modules and other code";
  }
  return "other strings over 2 KB";
}

function summarise(s: Snapshot, top = 25) {
  const f = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const n = f.length, T = f.indexOf("type"), N = f.indexOf("name"), S = f.indexOf("self_size");
  const byType = new Map<string, number>();
  const byName = new Map<string, [number, number]>();
  const strings: [number, string][] = [];
  const kinds = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += n) {
    const type = types[s.nodes[i + T]], size = s.nodes[i + S];
    total += size;
    byType.set(type, (byType.get(type) ?? 0) + size);
    const name = type === "string" || type === "concatenated string"
      ? "(string)"
      : `${type}:${s.strings[s.nodes[i + N]].slice(0, 60)}`;
    const c = byName.get(name) ?? [0, 0];
    byName.set(name, [c[0] + size, c[1] + 1]);
    if (type === "string" && size > 20_000) strings.push([size, s.strings[s.nodes[i + N]]]);
    if (type === "string") {
      const k = stringKind(s.strings[s.nodes[i + N]], size);
      kinds.set(k, (kinds.get(k) ?? 0) + size);
    }
  }
  console.log(`total ${mib(total)} MiB`);
  for (const [t, b] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${t}: ${mib(b)}`);
  console.log("largest kinds (MiB, count):");
  for (const [k, [b, c]] of [...byName].sort((a, b) => b[1][0] - a[1][0]).slice(0, top)) {
    console.log(`  ${mib(b).padStart(7)} ${String(c).padStart(8)}  ${k}`);
  }
  console.log("strings by kind (MiB):");
  for (const [k, b] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${mib(b)} ${k}`);
  strings.sort((a, b) => b[0] - a[0]);
  const big = strings.reduce((a, [b]) => a + b, 0);
  console.log(`strings over 20 KB: ${strings.length}, ${mib(big)} MiB; largest:`);
  for (const [b, t] of strings.slice(0, 12)) {
    console.log(`  ${(b / 1024).toFixed(0)} KiB ${JSON.stringify(t.slice(0, 80))}`);
  }
}

if (import.meta.main) {
  const misses = Number(Deno.env.get("MISSES") ?? 0);
  await withBenchMain(async (p) => {
    const tmp = await Deno.makeTempDir();
    for (let done = 0, run = 0; done < misses; run++) {
      const w = await runWrk(tmp, p.api, "/miss/", {
        connections: 64,
        durationSec: 5,
        uniquePrefix: `/miss/s${run}-`,
        uniqueKeys: misses - done,
      });
      done += w.requests;
    }
    console.log(`${misses} misses; RSS ${mib(await rssOf(p.pid))} MiB`);
    summarise(await takeSnapshot(9339));
  });
}
