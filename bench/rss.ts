/** Resident set size of a process, sampled from /proc (Linux). */

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
