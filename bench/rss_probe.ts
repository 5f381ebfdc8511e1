/**
 * Where Cachely's resident memory goes: starts the origin and the bench Cachely server
 * alone, drives one workload at a time with wrk and prints VmRSS, VmHWM, anonymous vs
 * file-backed resident memory (/proc/PID/smaps_rollup) and the V8 heap after a full GC
 * between them.
 *
 *   deno run -A bench/rss_probe.ts [phase…]
 *   phases: hits misses video range fill (default: all, in that order), and clear, trim,
 *   sleepN (N seconds idle) and smaps (resident memory by kind of mapping)
 *
 * Extra environment (e.g. MALLOC_ARENA_MAX=2, BENCH_DATABASE_URL) reaches the Cachely process,
 * which runs with the start task's V8 flags plus BENCH_V8_FLAGS (bench/cachely_proc.ts).
 */
import { spawnReady } from "./proc.ts";
import { runWrk } from "./wrk.ts";
import type { Target } from "./types.ts";
import { mib } from "./rss.ts";
import { benchV8Flags } from "./cachely_proc.ts";

const here = new URL(".", import.meta.url);
const phases = Deno.args.length ? Deno.args : ["hits", "misses", "video", "range", "fill"];
const seconds = Number(Deno.env.get("PROBE_SECONDS") ?? 5);

/** Resident memory of `pid` from /proc, in bytes. */
async function residentOf(pid: number) {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const roll = await Deno.readTextFile(`/proc/${pid}/smaps_rollup`);
  const kb = (s: string, k: string) =>
    Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return {
    rss: kb(status, "VmRSS"),
    hwm: kb(status, "VmHWM"),
    anon: kb(roll, "Anonymous"),
    file: kb(status, "RssFile"),
  };
}

const origin = await spawnReady(Deno.execPath(), [
  "run",
  "-A",
  new URL("./origin.ts", here).pathname,
]);
const originUrl = `http://127.0.0.1:${origin.ready.port}`;
const cachely = await spawnReady(
  Deno.execPath(),
  [
    "run",
    "-A",
    `--v8-flags=${benchV8Flags()}`,
    "--config",
    new URL("../deno.json", here).pathname,
    new URL("./cachely_server.ts", here).pathname,
  ],
  {
    ORIGIN: originUrl,
    EDGE_CACHE_MAX_BYTES: String(640 * 1024 * 1024),
    ...Deno.env.toObject(),
  },
  120_000,
);
const port = cachely.ready.port as number;
const base = `http://127.0.0.1:${port}`;
const api: Target = {
  name: "cachely",
  base,
  host: cachely.ready.host as string,
  path: (p) => `/~api${p}`,
};
const img: Target = {
  name: "cachely",
  base,
  host: cachely.ready.imgHost as string,
  path: (p) => p.replace(/^\/bench\//, "/"),
};
const control = cachely.ready.control as string;
const tmp = await Deno.makeTempDir({ prefix: "cachely-rss-probe-" });

async function report(label: string) {
  const m = await (await fetch(`${control}/memory`)).json();
  const r = await residentOf(cachely.pid);
  console.log(
    `${label.padEnd(28)} rss ${mib(r.rss).padStart(7)} hwm ${mib(r.hwm).padStart(7)} anon ${
      mib(r.anon).padStart(7)
    } file ${mib(r.file).padStart(6)} | heap ${mib(m.heapUsed).padStart(6)}/${
      mib(m.heapTotal).padStart(6)
    } ext ${mib(m.external).padStart(6)} entries ${m.entries} | new ${
      mib(m.spaces.new_space)
    } old ${mib(m.spaces.old_space)} lo ${mib(m.spaces.large_object_space)}${
      m.malloc
        ? ` | malloc arena ${mib(m.malloc.arena)} mmap ${mib(m.malloc.hblkhd)} used ${
          mib(m.malloc.inUse)
        } free ${mib(m.malloc.free)}`
        : ""
    }`,
  );
}

/**
 * Resident memory by kind of mapping: V8's heap pages (256 KiB mappings; compare with the
 * committed spaces to see pages V8 freed but still holds), glibc's main heap ([heap]), its
 * per-thread arenas (64 MiB-aligned), other anonymous mappings (glibc's mmapped chunks such as
 * body slabs, thread stacks) and file-backed ones by file.
 */
async function smaps(pid: number) {
  const text = await Deno.readTextFile(`/proc/${pid}/smaps`);
  const kinds = new Map<string, { n: number; kb: number }>();
  for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+ *(.*)$/.exec(block.split("\n")[0]);
    if (!head) continue;
    const kb = Number(/\nRss:\s+(\d+)/.exec(block)?.[1] ?? 0);
    const size = Number(/\nSize:\s+(\d+)/.exec(block)?.[1] ?? 0);
    const [start, name] = [BigInt(`0x${head[1]}`), head[2]];
    const kind = name.startsWith("/")
      ? `file ${name.slice(name.lastIndexOf("/") + 1)}`
      : name !== ""
      ? name
      : size === 256
      ? "V8 heap pages (256 KiB)"
      : start % (64n << 20n) === 0n && size <= 65536
      ? "glibc thread arenas"
      : "other anonymous (glibc mmapped chunks, stacks)";
    const k = kinds.get(kind) ?? { n: 0, kb: 0 };
    k.n++;
    k.kb += kb;
    kinds.set(kind, k);
  }
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].kb - a[1].kb).slice(0, 8)) {
    console.log(`  ${mib(k.kb * 1024).padStart(7)} MiB in ${String(k.n).padStart(4)}  ${kind}`);
  }
}

const wrk = (t: Target, path: string, opts: Record<string, unknown> = {}) =>
  runWrk(tmp, t, path, { connections: 64, durationSec: seconds, ...opts });
const VIDEO = "/bench/video/upload/v1/video.mp4";

try {
  await report("start");
  for (const phase of phases) {
    let r;
    if (phase === "hits") r = await wrk(api, "/data.json");
    else if (phase === "misses") r = await wrk(api, "/miss/", { uniquePrefix: "/miss/p-" });
    else if (phase === "video") r = await wrk(img, VIDEO, { connections: 4 });
    else if (phase === "range") {
      r = await wrk(img, VIDEO, { connections: 16, headers: { range: "bytes=10485760-11534335" } });
    } else if (phase === "fill") {
      for (let i = 0; i < 30; i++) {
        const m = await (await fetch(`${control}/memory`)).json();
        if (m.entries >= 100_000) break;
        r = await wrk(api, "/miss/", { uniquePrefix: `/miss/fill-${i}-` });
      }
    } else if (phase === "clear") await fetch(`${control}/clear`, { method: "POST" });
    else if (phase.startsWith("sleep")) {
      await new Promise((res) => setTimeout(res, 1000 * Number(phase.slice(5) || 5)));
    } else if (phase === "trim") await fetch(`${control}/trim`, { method: "POST" });
    else if (phase === "smaps") await smaps(cachely.pid);
    else throw new Error(`unknown phase ${phase}`);
    await report(`${phase}${r ? ` (${r.rps.toFixed(0)}/s, ${r.errors} err)` : ""}`);
  }
} finally {
  await cachely.stop();
  await origin.stop();
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}
