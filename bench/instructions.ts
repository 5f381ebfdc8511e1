/**
 * User-space instructions per request of a running server, from `perf stat` attached to
 * its process while wrk drives it. Unlike requests/s this hardly moves when other
 * processes compete for the cores, so it is how hot-path changes are compared on a
 * shared machine:
 *
 *   deno run -A bench/instructions.ts [-d seconds] [-c connections] NAME=PID=URL[@HOST] …
 *
 * Needs `perf` (Debian linux-perf) and perf_event_paranoid ≤ 2 for a process you own.
 */
import { runWrk } from "./wrk.ts";
import type { Target, WrkOptions } from "./types.ts";

/** Instructions (user space) spent by `pid` while wrk runs against it, and the request count. */
export async function instructionsPerRequest(
  tmp: string,
  pid: number,
  target: Target,
  originPath: string,
  opts: WrkOptions & { connections: number; durationSec: number },
): Promise<{ perRequest: number; requests: number; rps: number }> {
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

if (import.meta.main) {
  const args = [...Deno.args];
  let duration = 3, connections = 16;
  const targets: { name: string; pid: number; base: string; path: string; host?: string }[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "-d") duration = Number(args.shift());
    else if (a === "-c") connections = Number(args.shift());
    else {
      const [name, pid, ...rest] = a.split("=");
      const [url, host] = rest.join("=").split("@");
      const u = new URL(url);
      targets.push({ name, pid: Number(pid), base: u.origin, path: u.pathname + u.search, host });
    }
  }
  const tmp = await Deno.makeTempDir({ prefix: "cachely-instr-" });
  for (const t of targets) {
    const r = await instructionsPerRequest(
      tmp,
      t.pid,
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
        ...(t.path.endsWith("/") ? { uniquePrefix: t.path } : {}),
      },
    );
    console.log(
      `${t.name}: ${Math.round(r.perRequest)} instructions/request (${r.requests} requests, ${
        r.rps.toFixed(0)
      } req/s)`,
    );
  }
  await Deno.remove(tmp, { recursive: true });
}
