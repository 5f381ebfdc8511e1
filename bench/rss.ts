/** Resident set size and CPU time of a process, read from /proc (Linux). */

/** VmRSS of `pid` in bytes (0 when unreadable). */
export async function rssOf(pid: number): Promise<number> {
  const s = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0);
  return kb * 1024;
}

/** Samples RSS every `ms` until stop(); returns the peak seen. */
export function rssPeak(pid: number, ms = 100): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssOf(pid));
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

export const mib = (b: number) => (b / 1024 / 1024).toFixed(1);

/** User and system CPU time of `pid` so far, in µs (from /proc/PID/stat, clock ticks of 10 ms). */
export async function cpuTimes(pid: number): Promise<{ user: number; system: number }> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields 14 and 15 (utime, stime), counted from 1 with pid and comm first
  return { user: Number(f[11]) * 10_000, system: Number(f[12]) * 10_000 };
}

/** User + system CPU time of `pid` so far, in µs. */
export async function cpuMicros(pid: number): Promise<number> {
  const t = await cpuTimes(pid);
  return t.user + t.system;
}

/** CPU time of `pid` and its live children (nginx's master and its worker), in µs. */
export async function treeCpuMicros(pid: number): Promise<number> {
  const kids = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`).catch(() => "");
  let us = await cpuMicros(pid);
  for (const k of kids.split(" ").filter(Boolean)) us += await cpuMicros(Number(k)).catch(() => 0);
  return us;
}
