/**
 * Cold start to first answer: `deno run -A main.ts` on PostgreSQL (already
 * migrated, MIGRATE_ON_START=false as on Deno Deploy) next to a bare `Deno.serve`,
 * each spawned TRIALS times; the time from spawn to the first HTTP answer. On the runtime
 * running this file and on each Deno of COLD_START_DENO_VERSIONS (default 2.5.7, Deno
 * Deploy's line; fetched from npm, its binary spawned directly). Needs BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (a server to create a database on). Called by bench/run.ts; runs alone
 * too: `deno run -A bench/cold_start.ts`.
 */
import postgres from "postgres";
import { migrateUnderLock } from "../lib/db/migrate_lock.ts";
import { withMainProcess } from "./main_proc.ts";

const TRIALS = Number(Deno.env.get("COLD_START_TRIALS") ?? 7);
const VERSIONS = (Deno.env.get("COLD_START_DENO_VERSIONS") ?? "2.5.7").split(",").filter(Boolean);

/** The binary of Deno `version` from npm (what `npx deno@version` runs). */
async function denoBinary(version: string): Promise<string> {
  const out = await new Deno.Command("npx", {
    args: ["-y", `deno@${version}`, "eval", "console.log(Deno.execPath())"],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`npx deno@${version} failed`);
  return new TextDecoder().decode(out.stdout).trim();
}
export const MAIN = new URL("../main.ts", import.meta.url).pathname;
const KEY = btoa("0123456789abcdef0123456789abcdef");

/** A free loopback port: the kernel's pick, or the first free one in [from, to]. */
export function freePort(from = 0, to = from): number {
  for (let p = from; p <= to; p++) {
    try {
      const l = Deno.listen({ hostname: "127.0.0.1", port: p });
      const port = (l.addr as Deno.NetAddr).port;
      l.close();
      return port;
    } catch (e) {
      if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    }
  }
  throw new Error(`no free port in ${from}–${to}`);
}

/**
 * A spawned server that has answered once: its child, port and milliseconds from spawn;
 * with `trace`, the in-process marks it reported (lib/boot_trace.ts), null if none came.
 */
export type Answered = {
  child: Deno.ChildProcess;
  port: number;
  ms: number;
  marks?: Record<string, number> | null;
};

/** The request a cold start waits for the answer of: GET `/` unless given. */
export type FirstRequest = (port: number) => Promise<Response>;

const GET_ROOT: FirstRequest = (port) => fetch(`http://127.0.0.1:${port}/`);

/**
 * Spawns `deno <args>` with PORT (default: a free one) and HOST set and waits for its first
 * HTTP answer to `request` (GET `/`). The caller stops the child (stopChild). `trace`: sets
 * CACHELY_BOOT_TRACE=1 and reads the marks main.ts writes to stderr after that answer.
 */
export async function spawnUntilAnswer(
  args: string[],
  env: Record<string, string>,
  port = freePort(),
  deno = Deno.execPath(),
  trace = false,
  request: FirstRequest = GET_ROOT,
): Promise<Answered> {
  const t0 = performance.now();
  const child = new Deno.Command(deno, {
    args,
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(trace ? { CACHELY_BOOT_TRACE: "1" } : {}),
    },
    stdout: "null",
    stderr: trace ? "piped" : "null",
  }).spawn();
  const marks = trace ? readMarks(child.stderr) : null;
  let last = "";
  try {
    for (;;) {
      try {
        const r = await request(port);
        await r.body?.cancel();
        const ms = performance.now() - t0;
        if (!marks) return { child, port, ms };
        const timeout = new Promise<null>((r) => setTimeout(() => r(null), 2_000));
        return { child, port, ms, marks: await Promise.race([marks, timeout]) };
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
        if (performance.now() - t0 > 30_000) throw new Error(`no answer within 30 s: ${last}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  } catch (e) {
    await stopChild(child);
    throw e;
  }
}

/** The `{"boot":{…}}` line of a traced process's stderr (the rest is drained). */
async function readMarks(
  stderr: ReadableStream<Uint8Array>,
): Promise<Record<string, number> | null> {
  let text = "";
  let found: Record<string, number> | null = null;
  const decoder = new TextDecoder();
  for await (const chunk of stderr) {
    if (found) continue;
    text += decoder.decode(chunk, { stream: true });
    const line = text.split("\n").find((l) => l.startsWith('{"boot":') && l.endsWith("}"));
    if (line) found = JSON.parse(line).boot;
    if (found) return found; // the rest is dropped with the child
  }
  return found;
}

export async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch { /* already gone */ }
  await child.status;
}

/** Milliseconds from spawn to the first HTTP answer (and the marks, when traced). */
async function coldStart(
  args: string[],
  env: Record<string, string>,
  deno = Deno.execPath(),
  trace = false,
  request?: FirstRequest,
): Promise<{ ms: number; marks?: Record<string, number> | null }> {
  const { child, ms, marks } = await spawnUntilAnswer(
    args,
    env,
    freePort(),
    deno,
    trace,
    request,
  );
  await stopChild(child);
  return { ms, marks };
}

/**
 * Creates a fresh PostgreSQL database on the server of `base` (a postgres:// URL), migrates
 * it, runs `fn` with its URL and a temporary directory, then drops both.
 */
export async function withFreshDatabase<T>(
  base: string,
  fn: (url: string, dir: string) => Promise<T>,
): Promise<T> {
  const name = `${Deno.env.get("BENCH_DATABASE_PREFIX") ?? "cachely_cold"}_${
    crypto.randomUUID().replaceAll("-", "").slice(0, 10)
  }`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const dir = await Deno.makeTempDir();
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    await migrateUnderLock(url.toString());
    return await fn(url.toString(), dir);
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The environment of `deno run -A main.ts` on a migrated database (as on Deno Deploy). */
export function appEnv(databaseUrl: string, dir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: KEY,
    MIGRATE_ON_START: "false",
    KV_PATH: `${dir}/kv.sqlite3`,
    LOG_LEVEL: "error",
  };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(0)} ms, min ${s[0].toFixed(0)} ms, max ${
    s[s.length - 1].toFixed(0)
  } ms (${s.length} trials)`;
};

/**
 * GET `path` with Host `host` over HTTP/1.1 on a fresh connection (fetch sends the URL's own
 * host), read to its end; the answer's status alone.
 */
async function rawGet(port: number, host: string, path: string): Promise<Response> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const head = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    if (!status) throw new Error("no status line");
    return new Response(null, { status });
  } catch (e) {
    try {
      conn.close();
    } catch { /* closed with its readable */ }
    throw e;
  }
}

/** A 200 to `request`, or an error (spawnUntilAnswer retries it until the 30 s bound). */
function ok(request: FirstRequest): FirstRequest {
  return async (port) => {
    const r = await request(port);
    if (r.status !== 200) {
      await r.body?.cancel();
      throw new Error(`status ${r.status}`);
    }
    return r;
  };
}

/** Adds one start's phase marks to `phases` (by name), for the median line. */
function collect(phases: Map<string, number[]>, marks: Record<string, number> | null | undefined) {
  for (const [k, v] of Object.entries(marks ?? {})) phases.set(k, [...phases.get(k) ?? [], v]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const phaseLine = (phases: Map<string, number[]>) =>
  [...phases].map(([k, xs]) => `${k} ${median(xs).toFixed(0)}`).join(", ");

/**
 * One runtime: main.ts is started once to sign up and create tenant `bench` (API proxy to
 * `origin`) and stopped, so KV holds its snapshot and marker as on any instance after the
 * first; then TRIALS cold starts of each: a bare Deno.serve; main.ts until its first edge
 * answer (GET /~api/cold/<n> on bench's host: the snapshot from KV, a miss to the origin);
 * main.ts until its first management answer (GET / on the app's host).
 */
async function measure(base: string, origin: string, deno: string, bare: string) {
  const version = new TextDecoder().decode(
    (await new Deno.Command(deno, { args: ["-V"], stdout: "piped" }).output()).stdout,
  ).trim();
  // A KV file of its own per runtime: values Deno 2.9 wrote (V8 15's serialization) do not
  // deserialize on 2.5 (docs/operations.md "Runtime version").
  await withMainProcess(
    base,
    origin,
    async (p) => {
      await p.stop();
      const env = p.env; // default settings, LOG_LEVEL included, as the program starts in production
      const edge: number[] = [];
      const management: number[] = [];
      const plain: number[] = [];
      const edgePhases = new Map<string, number[]>();
      const managementPhases = new Map<string, number[]>();
      for (let i = 0; i < TRIALS; i++) {
        plain.push((await coldStart(["run", "-A", bare], {}, deno)).ms);
        const first = ok((port) => rawGet(port, "bench.edge.test", `/~api/cold/${i}`));
        const e = await coldStart(["run", "-A", MAIN], env, deno, true, first);
        edge.push(e.ms);
        collect(edgePhases, e.marks);
        const m = await coldStart(["run", "-A", MAIN], env, deno, true, ok(GET_ROOT));
        management.push(m.ms);
        collect(managementPhases, m.marks);
      }
      console.log(`${version}, bare Deno.serve:                 ${stats(plain)}`);
      console.log(`${version}, cachely first edge answer:       ${stats(edge)}`);
      console.log(`${version}, cachely first management answer: ${stats(management)}`);
      // In-process marks (lib/boot_trace.ts): median ms since the runtime's time origin.
      console.log(
        `${version}, edge answer phases (median ms in process): ${phaseLine(edgePhases)}`,
      );
      console.log(
        `${version}, management answer phases (median ms in process): ${
          phaseLine(managementPhases)
        }`,
      );
    },
    {},
    [deno],
  );
}

if (import.meta.main) {
  const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!base) {
    console.log("cold start: skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL)");
    Deno.exit(0);
  }
  const dir = await Deno.makeTempDir();
  const bare = `${dir}/bare.ts`;
  await Deno.writeTextFile(
    bare,
    'Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1" }, () => new Response("ok"));',
  );
  const origin = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req) => Response.json({ path: new URL(req.url).pathname }),
  );
  try {
    const runtimes = [Deno.execPath(), ...await Promise.all(VERSIONS.map(denoBinary))];
    for (const deno of runtimes) {
      try {
        await measure(base, `http://127.0.0.1:${origin.addr.port}`, deno, bare);
      } catch (e) {
        console.log(`${deno}: failed: ${e instanceof Error ? e.message : e}`);
      }
    }
  } finally {
    await origin.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}
