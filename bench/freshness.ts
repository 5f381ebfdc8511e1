/**
 * Publish → fresh across instances: four real processes
 * (`deno run -A main.ts`, default settings) on one PostgreSQL database and one KV file.
 * 100 times: every instance caches the tenant's API answer, then instance 1's API bumps
 * the tenant's API cache version, and each instance is probed every 10 ms until it
 * answers the new version (a body the origin sent after the bump). Reports, per
 * instance and overall, the time from sending the bump to that first fresh answer.
 * Between bumps the instances are idle for 0–1.5 s (past nothing but the poll interval).
 *
 * Alone: `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A
 * bench/freshness.ts` (prints the RESULTS.md section); in `deno task bench` as the
 * `freshness` scenario (bench/scenarios/70_freshness.ts). Needs PostgreSQL: PGlite
 * lives inside one process and cannot be shared by four.
 */
import {
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "../tests/instances.ts";
import type { Check, ResultRow, ScenarioResult } from "./types.ts";

const PROBE_MS = 10;
const GIVE_UP_MS = 15_000;

export type FreshnessOptions = {
  databaseUrl: string;
  instances?: number;
  bumps?: number;
  log?: (m: string) => void;
  /** Extra environment for the instances (default settings otherwise). */
  env?: Record<string, string>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Milliseconds from `start` until `inst` answers something other than `before`. */
async function untilFresh(inst: Instance, host: string, before: string, start: number) {
  for (;;) {
    const r = await edgeFetch(inst, host, "/~api/item");
    if (r.status === 200 && r.body !== before) return performance.now() - start;
    if (performance.now() - start > GIVE_UP_MS) return Infinity;
    await sleep(PROBE_MS);
  }
}

export async function measureFreshness(o: FreshnessOptions): Promise<ScenarioResult> {
  const count = o.instances ?? 4;
  const bumps = o.bumps ?? 100;
  const log = o.log ?? console.log;
  const world = await sharedWorld(o.databaseUrl, "cachely_fresh");
  let served = 0;
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ n: ++served }),
  );
  const instances: Instance[] = [];
  try {
    const env = { ...world.env, USAGE_FLUSH_INTERVAL_MS: "10000", ...o.env };
    for (let i = 0; i < count; i++) instances.push(await startInstance(env));
    const owner = await signUp(instances[0]);
    const slug = `fresh-${crypto.randomUUID().slice(0, 8)}`;
    const host = `${slug}.localhost:8000`;
    const created = await owner.req(instances[0], "POST", "/api/tenants", {
      slug,
      cms: "generic",
      apiOrigin: `http://127.0.0.1:${origin.addr.port}`,
    });
    if (created.status !== 201) throw new Error(`tenant: ${created.status} ${created.text}`);
    const took: number[][] = instances.map(() => []);
    const bumpMs: number[] = [];
    const afterAnswer: number[] = []; // other instances: fresh, counted from the bump's answer
    for (let b = 0; b < bumps; b++) {
      const before = await Promise.all(
        instances.map(async (inst) => (await edgeFetch(inst, host, "/~api/item")).body),
      );
      await sleep(Math.random() * 1_500);
      const start = performance.now();
      let answered = 0;
      const bump = owner.req(instances[0], "POST", `/api/tenants/${slug}/refresh-cache`, {
        type: "api",
      }).then((r) => (answered = performance.now() - start, r));
      const fresh = await Promise.all(
        instances.map((inst, i) => untilFresh(inst, host, before[i], start)),
      );
      if ((await bump).status !== 200) throw new Error("bump failed");
      fresh.forEach((ms, i) => took[i].push(ms));
      bumpMs.push(answered);
      fresh.slice(1).forEach((ms) => afterAnswer.push(Math.max(0, ms - answered)));
      if ((b + 1) % 20 === 0) log(`  freshness: ${b + 1}/${bumps} bumps`);
    }
    const rows: ResultRow[] = [];
    const all = took.flat().sort((x, y) => x - y);
    const stat = (label: string, xs: number[], note: string) => {
      const s = [...xs].sort((x, y) => x - y);
      rows.push({
        case: label,
        target: "cachely (main.ts)",
        rps: null,
        p50Ms: pct(s, 50),
        p99Ms: pct(s, 99),
        note: `max ${s.at(-1)!.toFixed(0)} ms; ${note}`,
      });
    };
    took.forEach((xs, i) => stat(`bump → fresh, instance ${i + 1}`, xs, i ? "other" : "bumping"));
    stat(`bump → fresh, all ${count}`, all, `${all.length} answers`);
    stat("bump request answered", bumpMs, "the API write and its projection to KV");
    stat("bump answered → fresh, instances 2–4", afterAnswer, "the change feed's own delay");
    const checks: Check[] = [
      {
        name: "publish → fresh on every instance, median",
        want: "≤ 250 ms",
        got: `${pct(all, 50).toFixed(0)} ms`,
        pass: pct(all, 50) <= 250,
      },
      {
        name: "publish → fresh on every instance, worst",
        want: "≤ 1000 ms",
        got: `${all.at(-1)!.toFixed(0)} ms`,
        pass: all.at(-1)! <= 1_000,
      },
    ];
    return {
      title: `Publish → fresh across ${count} instances (bench/freshness.ts)`,
      rows,
      checks,
      notes: [
        `${count} processes of \`deno run -A main.ts\` on one PostgreSQL database and one KV ` +
        `file, default settings (EDGE_CHANGE_POLL_MS 50, EDGE_SNAPSHOT_TTL_MS 2000); ${bumps} ` +
        `API cache version bumps through instance 1's API, each instance probed every ` +
        `${PROBE_MS} ms from the moment the bump is sent until it answers a body fetched ` +
        `after it. Times include the bump request itself (the projection to KV); the last ` +
        `two rows split it out. Machine load (1-min average) at the end: ${
          (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ")[0]
        } on ${navigator.hardwareConcurrency} cores.`,
      ],
    };
  } finally {
    await Promise.all(instances.map(stop));
    await origin.shutdown();
    await world.close();
  }
}

if (import.meta.main) {
  const databaseUrl = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!databaseUrl) throw new Error("set BENCH_DATABASE_URL (PostgreSQL)");
  const r = await measureFreshness({
    databaseUrl,
    bumps: Number(Deno.env.get("BENCH_FRESHNESS_BUMPS") ?? 100),
  });
  const { renderResults } = await import("./report.ts");
  console.log(
    renderResults({
      started: new Date(),
      finished: new Date(),
      machine: {},
      settings: { durationSec: 0, connections: 0, rounds: 1 },
      database: "PostgreSQL",
      results: [r],
    }).split("\n").filter((l) => !l.startsWith("Run ") && !l.startsWith("Generated")).join("\n"),
  );
}
