/**
 * `deno task bench`: Cachely against nginx proxy_cache on loopback, same origin,
 * same run. Starts the origin (bench/origin.ts), Cachely (bench/cachely_server.ts,
 * the real bootstrap) and nginx (bench/nginx.ts), runs every bench/scenarios/*.ts
 * in name order, and writes bench/RESULTS.md. Installs nginx and wrk with apt-get
 * when missing (root only).
 *
 * Environment: BENCH_DURATION (seconds per wrk run, default 10), BENCH_CONNECTIONS
 * (default 64), BENCH_ROUNDS (default 3; the best figures per target are reported),
 * BENCH_ONLY (comma-separated scenario names), BENCH_DATABASE_URL (Cachely on
 * PostgreSQL instead of PGlite), BENCH_OUT (results file, default bench/RESULTS.md).
 */
import type { BenchContext, Scenario, ScenarioResult, Target } from "./types.ts";
import { type Child, run, spawnReady, which } from "./proc.ts";
import { type Nginx, startNginx } from "./nginx.ts";
import { runWrk } from "./wrk.ts";
import { renderResults } from "./report.ts";

const here = new URL(".", import.meta.url);
const envInt = (name: string, def: number) => {
  const v = Number(Deno.env.get(name) ?? def);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
};

async function ensureTools(): Promise<void> {
  const missing = [];
  if (!await which("nginx") && !await which("/usr/sbin/nginx")) missing.push("nginx-light");
  if (!await which("wrk")) missing.push("wrk");
  if (missing.length === 0) return;
  if (Deno.uid() !== 0) {
    throw new Error(
      `Missing ${missing.join(", ")}: install them (apt-get install ${missing.join(" ")})`,
    );
  }
  console.log(`installing ${missing.join(", ")} with apt-get…`);
  await run("apt-get", ["update", "-qq"]);
  await run("sh", [
    "-c",
    `DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`,
  ]);
}

async function loadScenarios(): Promise<Scenario[]> {
  const only = Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim()).filter(Boolean);
  const names: string[] = [];
  for await (const e of Deno.readDir(new URL("./scenarios/", here))) {
    if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) names.push(e.name);
  }
  names.sort();
  const out: Scenario[] = [];
  for (const n of names) {
    const mod = await import(new URL(`./scenarios/${n}`, here).href);
    const s = mod.scenario as Scenario | undefined;
    if (!s) throw new Error(`bench/scenarios/${n} exports no \`scenario\``);
    if (!only || only.includes(s.name)) out.push(s);
  }
  return out;
}

async function machine(): Promise<Record<string, string>> {
  const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
    .match(/model name\s*:\s*(.+)/)?.[1] ?? "unknown";
  const wrkV = await new Deno.Command("wrk", { args: ["-v"], stdout: "piped", stderr: "piped" })
    .output().then((o) => new TextDecoder().decode(o.stdout).split("\n")[0]).catch(() => "?");
  return {
    cpu,
    cores: String(navigator.hardwareConcurrency),
    deno: Deno.version.deno,
    wrk: wrkV.trim(),
    load: (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ").slice(0, 3)
      .join(" "),
  };
}

async function main() {
  await ensureTools();
  const durationSec = envInt("BENCH_DURATION", 10);
  const connections = envInt("BENCH_CONNECTIONS", 64);
  const rounds = envInt("BENCH_ROUNDS", 3);
  const scenarios = await loadScenarios();
  const tmp = await Deno.makeTempDir({ prefix: "cachely-bench-run-" });
  const children: Child[] = [];
  let nginx: Nginx | null = null;
  const started = new Date();
  const log = (m: string) =>
    console.log(`[bench ${((Date.now() - started.getTime()) / 1000).toFixed(0)}s] ${m}`);
  try {
    const origin = await spawnReady(Deno.execPath(), [
      "run",
      "-A",
      new URL("./origin.ts", here).pathname,
    ]);
    children.push(origin);
    const originPort = origin.ready.port as number;
    const originUrl = `http://127.0.0.1:${originPort}`;
    log(`origin on ${originUrl}`);
    const env: Record<string, string> = { ORIGIN: originUrl };
    for (const s of scenarios) Object.assign(env, s.env ?? {});
    const cachely = await spawnReady(
      Deno.execPath(),
      [
        "run",
        "-A",
        "--config",
        new URL("../deno.json", here).pathname,
        new URL("./cachely_server.ts", here).pathname,
      ],
      env,
      120_000,
    );
    children.push(cachely);
    const cPort = cachely.ready.port as number;
    log(`cachely on 127.0.0.1:${cPort} (host ${cachely.ready.host})`);
    nginx = await startNginx(tmp, originPort);
    log(`nginx ${nginx.version} on 127.0.0.1:${nginx.port}`);

    const targets: BenchContext["targets"] = {
      cachely: {
        name: "cachely",
        base: `http://127.0.0.1:${cPort}`,
        host: cachely.ready.host as string,
        path: (p) => `/~api${p}`,
      },
      nginx: { name: "nginx", base: `http://127.0.0.1:${nginx.port}`, path: (p) => p },
      origin: { name: "origin", base: originUrl, path: (p) => p },
    };
    const ctx: BenchContext = {
      targets,
      durationSec,
      connections,
      rounds,
      wrk: (t: Target, p, o = {}) => runWrk(tmp, t, p, { connections, durationSec, ...o }),
      originCount: async (path) =>
        (await (await fetch(`${originUrl}/__count?path=${encodeURIComponent(path)}`)).json()).count,
      cachelyToken: cachely.ready.token as string,
      cachelyApi: `http://localhost:${cPort}`,
      log,
    };
    const results: { scenario: Scenario; result: ScenarioResult }[] = [];
    for (const s of scenarios) {
      log(`scenario ${s.name}`);
      results.push({ scenario: s, result: await s.run(ctx) });
    }
    const out = Deno.env.get("BENCH_OUT") ?? new URL("./RESULTS.md", here).pathname;
    await Deno.writeTextFile(
      out,
      renderResults({
        started,
        finished: new Date(),
        machine: { ...(await machine()), nginx: nginx.version },
        settings: { durationSec, connections, rounds },
        results: results.map((r) => r.result),
      }),
    );
    // Generated markdown must pass `deno fmt --check` like the rest of the tree.
    await run(Deno.execPath(), ["fmt", "-q", out]).catch(() => {});
    log(`wrote ${out}`);
    const failed = results.flatMap((r) => r.result.checks ?? []).filter((c) => !c.pass);
    for (const c of failed) console.log(`target missed: ${c.name}: want ${c.want}, got ${c.got}`);
  } finally {
    await nginx?.stop().catch(() => {});
    for (const c of children.reverse()) await c.stop().catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
