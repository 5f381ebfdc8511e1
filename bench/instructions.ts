/**
 * User-space instructions per request of a running server while wrk drives it. Unlike
 * requests/s this hardly moves when other processes compete for the cores, so it is how
 * hot-path changes are compared on a shared machine:
 *
 *   deno run -A bench/instructions.ts [-d seconds] [-c connections] NAME=PID=URL[@HOST] …
 *
 * Two counters: `perf stat` attached to the process (Debian linux-perf, perf_event_paranoid
 * ≤ 2), or, when PID is a process started under callgrind (machines without hardware
 * counters), callgrind's own count: one warm-up run of wrk, then the counters are zeroed,
 * wrk runs again and callgrind dumps (startup is never counted). Start such a server with
 *
 *   valgrind --tool=callgrind --smc-check=all --instr-atstart=no \
 *     --callgrind-out-file=/tmp/cg.%p deno run -A bench/cachely_server.ts
 *
 * Callgrind counts every thread, instrumented code runs ~3–20× slower, and its counts
 * differ from perf's (compare callgrind with callgrind only). On a loaded machine a
 * multi-threaded Deno under callgrind stalls (seconds per request: valgrind serialises the
 * runtime's threads), so there use `-m cpu`: the process's CPU time (user + system, from
 * /proc/PID/stat) per request. It is not an instruction count, but unlike wall-clock
 * throughput it does not count the time the server waited for a core.
 */
import { runWrk } from "./wrk.ts";
import { cpuTimes } from "./rss.ts";
import type { Target, WrkOptions } from "./types.ts";

/** Instructions (user space) spent by `pid` while wrk runs against it, and the request count. */
export async function instructionsPerRequest(
  tmp: string,
  pid: number,
  target: Target,
  originPath: string,
  opts: WrkOptions & { connections: number; durationSec: number },
): Promise<{ perRequest: number; requests: number; rps: number }> {
  if (await underCallgrind(pid)) {
    return await callgrindPerRequest(tmp, pid, target, originPath, opts);
  }
  const perf = new Deno.Command("perf", {
    args: ["stat", "-x", ",", "-e", "instructions:u", "-p", String(pid)],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  await new Promise((r) => setTimeout(r, 200)); // perf attached
  const w = await runWrk(tmp, target, originPath, opts);
  perf.kill("SIGINT");
  const err = new TextDecoder().decode((await perf.output()).stderr);
  const line = err.split("\n").find((l) => l.includes("instructions"));
  const n = Number(line?.split(",")[0]);
  if (!Number.isFinite(n)) throw new Error(`perf printed no instruction count:\n${err}`);
  return { perRequest: n / w.requests, requests: w.requests, rps: w.rps };
}

/** True when `pid` is a valgrind (callgrind) process. */
async function underCallgrind(pid: number): Promise<boolean> {
  const cmd = await Deno.readTextFile(`/proc/${pid}/cmdline`).catch(() => "");
  return cmd.includes("valgrind") && cmd.includes("--tool=callgrind");
}

async function callgrindControl(pid: number, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("callgrind_control", {
    args: [...args, String(pid)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`callgrind_control ${args.join(" ")} failed`);
}

/** The newest dump's total instruction count (`totals:` line). */
async function lastDumpTotal(pid: number, since: number): Promise<number> {
  const cmd = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0");
  const out = cmd.find((a) => a.startsWith("--callgrind-out-file="))?.split("=")[1]
    .replace("%p", String(pid)) ??
    `${await Deno.realPath(`/proc/${pid}/cwd`)}/callgrind.out.${pid}`;
  const dir = out.slice(0, out.lastIndexOf("/")) || ".";
  const base = out.slice(out.lastIndexOf("/") + 1);
  for (let i = 0; i < 100; i++) {
    let newest: { path: string; mtime: number } | null = null;
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.startsWith(base + ".")) continue;
      const st = await Deno.stat(`${dir}/${e.name}`);
      const mtime = st.mtime?.getTime() ?? 0;
      if (mtime >= since && (!newest || mtime > newest.mtime)) {
        newest = { path: `${dir}/${e.name}`, mtime };
      }
    }
    if (newest) {
      const text = await Deno.readTextFile(newest.path);
      const m = text.match(/^totals: (\d+)/m);
      if (m) return Number(m[1]);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("callgrind wrote no dump");
}

async function callgrindPerRequest(
  tmp: string,
  pid: number,
  target: Target,
  originPath: string,
  opts: WrkOptions & { connections: number; durationSec: number },
): Promise<{ perRequest: number; requests: number; rps: number }> {
  await callgrindControl(pid, "--instr=on");
  await runWrk(tmp, target, originPath, opts); // warm-up: JIT tiers, memos, caches
  await callgrindControl(pid, "--zero");
  const w = await runWrk(tmp, target, originPath, opts);
  const since = Date.now() - 1000;
  await callgrindControl(pid, "--dump");
  const n = await lastDumpTotal(pid, since);
  return { perRequest: n / w.requests, requests: w.requests, rps: w.rps };
}

/** CPU µs (user, system) that `pid` spent per request while wrk drives it, after a warm-up. */
export async function cpuPerRequest(
  tmp: string,
  pid: number,
  target: Target,
  originPath: string,
  opts: WrkOptions & { connections: number; durationSec: number },
): Promise<{ userUs: number; systemUs: number; requests: number; rps: number }> {
  const a = await cpuTimes(pid);
  const w = await runWrk(tmp, target, originPath, opts);
  const b = await cpuTimes(pid);
  return {
    userUs: (b.user - a.user) / w.requests,
    systemUs: (b.system - a.system) / w.requests,
    requests: w.requests,
    rps: w.rps,
  };
}

if (import.meta.main) {
  const args = [...Deno.args];
  let duration = 3, connections = 16, mode = "instructions";
  const targets: { name: string; pid: number; base: string; path: string; host?: string }[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "-d") duration = Number(args.shift());
    else if (a === "-c") connections = Number(args.shift());
    else if (a === "-m") mode = args.shift()!;
    else {
      const [name, pid, ...rest] = a.split("=");
      const [url, host] = rest.join("=").split("@");
      const u = new URL(url);
      targets.push({ name, pid: Number(pid), base: u.origin, path: u.pathname + u.search, host });
    }
  }
  const tmp = await Deno.makeTempDir({ prefix: "cachely-instr-" });
  for (const t of targets) {
    const target = { name: "origin" as const, base: t.base, host: t.host, path: () => t.path };
    const opts = {
      connections,
      durationSec: duration,
      ...(t.path.endsWith("/") ? { uniquePrefix: t.path } : {}),
    };
    if (mode === "cpu") {
      const r = await cpuPerRequest(tmp, t.pid, target, t.path, opts);
      console.log(
        `${t.name}: ${r.userUs.toFixed(2)} µs user + ${
          r.systemUs.toFixed(2)
        } µs system CPU/request (${r.requests} requests, ${r.rps.toFixed(0)} req/s)`,
      );
      continue;
    }
    const r = await instructionsPerRequest(tmp, t.pid, target, t.path, opts);
    console.log(
      `${t.name}: ${Math.round(r.perRequest)} instructions/request (${r.requests} requests, ${
        r.rps.toFixed(0)
      } req/s)`,
    );
  }
  await Deno.remove(tmp, { recursive: true });
}
