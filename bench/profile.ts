/**
 * Where a Cachely cache hit spends its time: starts the origin and Cachely (with
 * the V8 inspector on loopback), fills the cache, drives hits with wrk while the
 * V8 CPU profiler samples, and prints self time per function and per file.
 *
 *   deno run -A bench/profile.ts [originPath=/data.json] [seconds=8]
 *   (a path ending in / profiles misses of unique keys; PROFILE_CONNECTIONS, default 64)
 *
 * Output: bench/PROFILE.md (or BENCH_PROFILE_OUT). Uses the same child processes as run.ts.
 */
import { spawnReady } from "./proc.ts";
import { runWrk } from "./wrk.ts";
import { rawGet } from "./http1.ts";
import type { Target } from "./types.ts";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

async function inspectorUrl(port: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      if (list[0]?.webSocketDebuggerUrl) return list[0].webSocketDebuggerUrl;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error("inspector did not come up");
    await new Promise((r) => setTimeout(r, 100));
  }
}

function cdp(url: string) {
  const ws = new WebSocket(url);
  let id = 0;
  const pending = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id && pending.has(m.id)) {
      pending.get(m.id)!(m.result);
      pending.delete(m.id);
    }
  };
  const open = new Promise((r) => (ws.onopen = r));
  return {
    async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      await open;
      const my = ++id;
      const p = new Promise<T>((r) => pending.set(my, r as (v: unknown) => void));
      ws.send(JSON.stringify({ id: my, method, params }));
      return await p;
    },
    close: () => ws.close(),
  };
}

function summarise(p: Profile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, t] of self) {
    const cf = byId.get(id)!.callFrame;
    const short = cf.url.replace(/^file:\/\/\/work\/main\//, "").replace(
      /^.*\/node_modules\//,
      "npm:",
    );
    const name = `${cf.functionName || "(anonymous)"} ${
      short ? `${short}:${cf.lineNumber + 1}` : ""
    }`;
    fn.set(name, (fn.get(name) ?? 0) + t);
    const f = short === "" ? `(${cf.functionName || "native"})` : short.split(":")[0];
    file.set(f, (file.get(f) ?? 0) + t);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) =>
      `| ${k.replaceAll("|", "\\|")} | ${(v / 1000).toFixed(0)} | ${
        (100 * v / total).toFixed(1)
      }% |`
    );
  return { total, fn: top(fn, 30), file: top(file, 20) };
}

if (import.meta.main) {
  const originPath = Deno.args[0] ?? "/data.json";
  const seconds = Number(Deno.args[1] ?? 8);
  const connections = Number(Deno.env.get("PROFILE_CONNECTIONS") ?? 64);
  const here = new URL(".", import.meta.url);
  const origin = await spawnReady(Deno.execPath(), [
    "run",
    "-A",
    new URL("./origin.ts", here).pathname,
  ]);
  // Within the bench's port range (18600-18699); override with PROFILE_INSPECT_PORT.
  const inspectPort = Number(
    Deno.env.get("PROFILE_INSPECT_PORT") ?? 18650 + Math.floor(Math.random() * 50),
  );
  const cachely = await spawnReady(
    Deno.execPath(),
    [
      "run",
      "-A",
      `--inspect=127.0.0.1:${inspectPort}`,
      "--config",
      new URL("../deno.json", here).pathname,
      new URL("./cachely_server.ts", here).pathname,
    ],
    { ORIGIN: `http://127.0.0.1:${origin.ready.port}` },
    120_000,
  );
  const tmp = await Deno.makeTempDir();
  try {
    const target: Target = {
      name: "cachely",
      base: `http://127.0.0.1:${cachely.ready.port}`,
      host: cachely.ready.host as string,
      path: (p) => `/~api${p}`,
    };
    await rawGet(target.base, target.path(originPath), target.host);
    // A path ending in / (e.g. /miss/) gets unique keys: a miss profile.
    const unique = originPath.endsWith("/") ? { uniquePrefix: originPath } : {};
    await runWrk(tmp, target, originPath, { connections: 64, durationSec: 2, ...unique }); // warm-up
    const c = cdp(await inspectorUrl(inspectPort));
    await c.send("Profiler.enable");
    await c.send("Profiler.setSamplingInterval", { interval: 100 });
    await c.send("Profiler.start");
    const w = await runWrk(tmp, target, originPath, {
      connections,
      durationSec: seconds,
      ...unique,
    });
    const { profile } = await c.send<{ profile: Profile }>("Profiler.stop");
    c.close();
    const s = summarise(profile);
    const out = [
      `# Cache-hit CPU profile (${originPath})`,
      "",
      `Generated by \`deno run -A bench/profile.ts\`: V8 sampling profiler (100 µs) in the Cachely`,
      `process while wrk drove requests (${connections} connections, ${seconds} s): ${
        w.rps.toFixed(0)
      } req/s,`,
      `p50 ${w.p50Ms.toFixed(3)} ms, p99 ${w.p99Ms.toFixed(3)} ms. Self time; "(program)" and`,
      `"(idle)" are V8/runtime time outside JavaScript (including Deno's HTTP server in Rust).`,
      "",
      "## By file",
      "",
      "| file | self ms | share |",
      "|---|---:|---:|",
      ...s.file,
      "",
      "## By function",
      "",
      "| function | self ms | share |",
      "|---|---:|---:|",
      ...s.fn,
      "",
    ].join("\n");
    const file = Deno.env.get("BENCH_PROFILE_OUT") ?? new URL("./PROFILE.md", here).pathname;
    await Deno.writeTextFile(file, out);
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", file] }).output();
    console.log(out);
  } finally {
    await cachely.stop();
    await origin.stop();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
