/**
 * A fresh process's baseline: `deno run -A main.ts` on a fresh, migrated
 * PostgreSQL database (MIGRATE_ON_START=false, KV_PATH=:memory:), spawned TRIALS times. Per
 * spawn: the milliseconds to the first HTTP answer, then one GET /login on the management
 * host and one GET on a tenant host, then VmRSS (and its anonymous and file-backed parts)
 * from /proc/PID/status. Prints the median, min and max of each.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres deno run -A bench/baseline_probe.ts
 *
 * With arguments (paths of main.ts files, e.g. of an exported older tree) the spawns of each
 * are interleaved, so load from other processes falls on all alike, and each gets its own lines.
 * Extra environment (e.g. MALLOC_ARENA_MAX) reaches the Cachely process. Ports: 9400–9499.
 */
import {
  appEnv,
  freePort,
  MAIN,
  spawnUntilAnswer,
  stopChild,
  withFreshDatabase,
} from "./cold_start.ts";
import { rawGet } from "./http1.ts";
import { median } from "./helpers.ts";

const TRIALS = Number(Deno.env.get("PROBE_TRIALS") ?? 7);
const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/** VmRSS, RssAnon and RssFile of `pid`, in MiB. */
async function residentMiB(pid: number) {
  const s = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

type Trial = { ms: number; rss: number; anon: number; file: number; statuses: string };

async function trial(main: string, env: Record<string, string>): Promise<Trial> {
  const { child, port, ms } = await spawnUntilAnswer(
    ["run", "-A", main],
    env,
    freePort(9400, 9499),
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    const login = await rawGet(url, "/login", `localhost:${port}`);
    const tenant = await rawGet(url, "/", `probe.localhost:${port}`);
    await new Promise((r) => setTimeout(r, 200)); // let the answers' work settle
    return { ms, ...await residentMiB(child.pid), statuses: `${login.status}/${tenant.status}` };
  } finally {
    await stopChild(child);
  }
}

const fmt = (label: string, xs: number[], unit: string, digits = 1) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${label.padEnd(12)} median ${median(xs).toFixed(digits)} ${unit} (min ${
    s[0].toFixed(digits)
  }, max ${s[s.length - 1].toFixed(digits)}, ${s.length} spawns)`;
};

if (import.meta.main) {
  await withFreshDatabase(base, async (url, dir) => {
    const env = { ...Deno.env.toObject(), ...appEnv(url, dir), KV_PATH: ":memory:" };
    const mains = Deno.args.length ? Deno.args : [MAIN];
    for (const main of mains) {
      const warm = await spawnUntilAnswer(["run", "-A", main], env, freePort(9400, 9499));
      await stopChild(warm.child); // the module cache is warm from here on
    }
    const trials: Trial[][] = mains.map(() => []);
    for (let i = 0; i < TRIALS; i++) {
      for (const [j, main] of mains.entries()) trials[j].push(await trial(main, env));
    }
    for (const [j, main] of mains.entries()) {
      const t = trials[j];
      if (mains.length > 1) console.log(main);
      console.log(`login/tenant statuses: ${[...new Set(t.map((x) => x.statuses))].join(", ")}`);
      console.log(fmt("cold start", t.map((x) => x.ms), "ms", 0));
      console.log(fmt("VmRSS", t.map((x) => x.rss), "MiB"));
      console.log(fmt("RssAnon", t.map((x) => x.anon), "MiB"));
      console.log(fmt("RssFile", t.map((x) => x.file), "MiB"));
    }
  });
}
