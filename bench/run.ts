/**
 * `deno task bench`: Cachely against nginx proxy_cache on loopback, same origin,
 * same run. Starts the origin (bench/origin.ts), Cachely (bench/cachely_server.ts,
 * the real bootstrap) and nginx (bench/nginx.ts), runs every bench/scenarios/*.ts
 * in name order, and writes bench/RESULTS.md. Installs nginx and wrk with apt-get
 * when missing (root only).
 *
 * Also starts the floors (bench/floor.ts: a bare Deno.serve with one header, and with
 * Cachely's own hit header set) and a second nginx in front of Cachely as the CDN
 * stand-in, and runs bench/cold_start.ts when it exists.
 *
 * Environment: BENCH_DURATION (seconds per wrk run, default 5), BENCH_CONNECTIONS
 * (default 64), BENCH_ROUNDS (default 3; targets are interleaved per round and the
 * median of the rounds is reported),
 * BENCH_ONLY (comma-separated scenario names), BENCH_DATABASE_URL (Cachely on
 * PostgreSQL instead of PGlite), BENCH_OUT (results file, default bench/RESULTS.md).
 */
import type { BenchContext, Scenario, ScenarioResult, Target } from "./types.ts";
import { type Child, run, spawnReady, which } from "./proc.ts";
import { startCachely } from "./cachely_proc.ts";
import { type Nginx, startNginx } from "./nginx.ts";
import { runWrk } from "./wrk.ts";
import { renderResults, withKeptSections } from "./report.ts";

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

const only = () =>
  Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim()).filter(Boolean) ?? null;

async function loadScenarios(): Promise<Scenario[]> {
  const names0 = only();
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
    if (!names0 || names0.includes(s.name)) out.push(s);
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
  const durationSec = envInt("BENCH_DURATION", 5);
  const connections = envInt("BENCH_CONNECTIONS", 64);
  const rounds = envInt("BENCH_ROUNDS", 3);
  const scenarios = await loadScenarios();
  const tmp = await Deno.makeTempDir({ prefix: "cachely-bench-run-" });
  const children: Child[] = [];
  let nginx: Nginx | null = null;
  let cdn: Nginx | null = null;
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
    const floor = await spawnReady(Deno.execPath(), [
      "run",
      "-A",
      new URL("./floor.ts", here).pathname,
    ], { ORIGIN: originUrl });
    children.push(floor);
    const floorUrl = `http://127.0.0.1:${floor.ready.port}`;
    log(`floors on ${floorUrl}`);
    const env: Record<string, string> = { ORIGIN: originUrl };
    for (const s of scenarios) Object.assign(env, s.env ?? {});
    const cachelyProc = await startCachely(env);
    const cachely = cachelyProc.child;
    children.push(cachely);
    const cPort = cachely.ready.port as number;
    log(`cachely on 127.0.0.1:${cPort} (host ${cachely.ready.host})`);
    nginx = await startNginx(tmp, originPort);
    log(`nginx ${nginx.version} on 127.0.0.1:${nginx.port}`);
    const cdnHost = cachely.ready.cdnHost as string;
    cdn = await startNginx(tmp, cPort, { cdn: { upstreamHost: cdnHost } });
    log(`CDN stand-in (nginx) on 127.0.0.1:${cdn.port} in front of ${cdnHost}`);

    const targets: BenchContext["targets"] = {
      cachely: {
        name: "cachely",
        base: `http://127.0.0.1:${cPort}`,
        host: cachely.ready.host as string,
        path: (p) => `/~api${p}`,
      },
      nginx: { name: "nginx", base: `http://127.0.0.1:${nginx.port}`, path: (p) => p },
      origin: { name: "origin", base: originUrl, path: (p) => p },
      floorOne: { name: "floor, one header", base: floorUrl, path: (p) => `/one${p}` },
      floorProxy: { name: "floor, fetch proxy", base: floorUrl, path: (p) => `/proxy${p}` },
      floorBuffered: {
        name: "floor, buffered proxy",
        base: floorUrl,
        path: (p) => `/buffered${p}`,
      },
      floorSame: { name: "floor, same headers", base: floorUrl, path: (p) => `/same${p}` },
      floorClone: {
        name: "floor, same headers, cloned",
        base: floorUrl,
        path: (p) => `/clone${p}`,
      },
      floorCloneRead: {
        name: "floor, cloned, validators read",
        base: floorUrl,
        path: (p) => `/clonev${p}`,
      },
      cachelyImg: {
        name: "cachely",
        base: `http://127.0.0.1:${cPort}`,
        host: cachely.ready.imgHost as string,
        path: (p) => p.replace(/^\/bench\//, "/"),
      },
      cdn: {
        name: "nginx CDN in front of cachely",
        base: `http://127.0.0.1:${cdn.port}`,
        path: (p) => `/~api${p}`,
      },
      cachelyCdn: {
        name: "cachely (CDN offload tenant)",
        base: `http://127.0.0.1:${cPort}`,
        host: cdnHost,
        path: (p) => `/~api${p}`,
      },
    };
    const ctx: BenchContext = {
      targets,
      durationSec,
      connections,
      rounds,
      wrk: (t: Target, p, o = {}) => runWrk(tmp, t, p, { connections, durationSec, ...o }),
      originCount: async (path) =>
        (await (await fetch(`${originUrl}/__count?path=${encodeURIComponent(path)}`)).json()).count,
      registerSameHeaders: async (path, headers) => {
        const res = await fetch(`${floorUrl}/__same?path=${encodeURIComponent(path)}`, {
          method: "POST",
          body: JSON.stringify(headers),
        });
        await res.body?.cancel();
      },
      cachelyPid: cachely.pid,
      floorPid: floor.pid,
      cachelyMemory: cachelyProc.memory,
      clearCachelyCache: cachelyProc.clear,
      startCachely: async (extra = {}) => {
        const p = await startCachely({ ...env, ...extra });
        children.push(p.child);
        return p;
      },
      cachelyEnv: env,
      cachelyToken: cachely.ready.token as string,
      cachelyApi: `http://localhost:${cPort}`,
      log,
    };
    const results: { scenario: Scenario; result: ScenarioResult }[] = [];
    for (const s of scenarios) {
      log(`scenario ${s.name}`);
      results.push({ scenario: s, result: await s.run(ctx) });
    }
    const coldStart = new URL("./cold_start.ts", here);
    if (!only() && await Deno.stat(coldStart).then(() => true, () => false)) {
      log("bench/cold_start.ts");
      const out = await run(Deno.execPath(), ["run", "-A", coldStart.pathname]).catch((e) =>
        `failed: ${e instanceof Error ? e.message : e}`
      );
      results.push({
        scenario: { name: "cold-start", run: () => Promise.reject() },
        result: {
          title: "Cold start (bench/cold_start.ts)",
          rows: [],
          notes: out.trim().split("\n"),
        },
      });
    }
    const out = Deno.env.get("BENCH_OUT") ?? new URL("./RESULTS.md", here).pathname;
    const previous = await Deno.readTextFile(out).catch(() => "");
    await Deno.writeTextFile(
      out,
      withKeptSections(
        previous,
        renderResults({
          started,
          finished: new Date(),
          machine: {
            ...(await machine()),
            nginx: nginx.version,
            "nginx cache": nginx.onTmpfs ? "tmpfs (/dev/shm)" : "disk",
          },
          settings: { durationSec, connections, rounds },
          database: Deno.env.get("BENCH_DATABASE_URL")
            ? "PostgreSQL (BENCH_DATABASE_URL)"
            : "PGlite (in process)",
          results: results.map((r) => r.result),
        }),
      ),
    );
    // Generated markdown must pass `deno fmt --check` like the rest of the tree.
    await run(Deno.execPath(), ["fmt", "-q", out]).catch(() => {});
    log(`wrote ${out} (${((Date.now() - started.getTime()) / 1000).toFixed(0)} s in all)`);
    const failed = results.flatMap((r) => r.result.checks ?? []).filter((c) => !c.pass);
    for (const c of failed) console.log(`target missed: ${c.name}: want ${c.want}, got ${c.got}`);
  } finally {
    await nginx?.stop().catch(() => {});
    await cdn?.stop().catch(() => {});
    for (const c of children.reverse()) await c.stop().catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
