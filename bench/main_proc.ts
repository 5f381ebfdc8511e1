/**
 * The program as Deno Deploy runs it, for the bench: `deno run -A main.ts` (none of the start
 * task's flags or malloc settings) on a fresh, migrated PostgreSQL database and a real KV file,
 * with one signed-up user and tenant `bench` (API proxy to `origin`) created over HTTP. Its
 * memory is read from /proc only (bench/rss.ts): nothing in the process forces a collection.
 */
import { withFreshDatabase } from "./cold_start.ts";
import { spawnReady } from "./proc.ts";
import type { Target } from "./types.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

export type MainProcess = {
  pid: number;
  port: number;
  /** Tenant `bench`: origin path `/x` → `/~api/x` with its Host. */
  api: Target;
  /** What the process printed (stdout and stderr), for a failure's message. */
  output: string[];
  /** Its environment: another process started with it shares the database and KV. */
  env: Record<string, string>;
  stop(): Promise<void>;
};

/**
 * Runs `fn` against main.ts on its own database (dropped afterwards). `env` adds to the
 * defaults (e.g. EDGE_MEMORY_LIMIT_MB); `deno` is the runtime to start it with.
 */
export async function withMainProcess<T>(
  base: string,
  origin: string,
  fn: (p: MainProcess) => Promise<T>,
  env: Record<string, string> = {},
  deno: string[] = [Deno.execPath()],
): Promise<T> {
  return await withFreshDatabase(base, async (url, dir) => {
    const p = await startMain(deno, {
      DATABASE_URL: url,
      MIGRATE_ON_START: "false",
      KV_PATH: `${dir}/kv.sqlite3`,
      DATA_DIR: `${dir}/data`,
      ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
      ALLOW_PRIVATE_UPSTREAMS: "true",
      PROXY_DOMAIN: "edge.test",
      ...env,
    });
    try {
      await createBenchTenant(p, origin);
      return await fn(p);
    } finally {
      await p.stop();
    }
  });
}

async function startMain(deno: string[], env: Record<string, string>): Promise<MainProcess> {
  const child = new Deno.Command(deno[0], {
    args: [...deno.slice(1), "run", "-A", MAIN],
    // Only what Deploy would give it: no MALLOC_* or V8 flags from this process's environment.
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...env,
      PORT: "0",
      HOST: "127.0.0.1",
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  let listening: (port: number) => void;
  const port = new Promise<number>((r) => listening = r);
  const read = async (s: ReadableStream<Uint8Array>) => {
    for await (
      const chunk of s.pipeThrough(
        new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>,
      )
    ) {
      for (const line of chunk.split("\n")) {
        if (output.length < 200) output.push(line);
        const m = line.includes("cachely listening") ? /"port":(\d+)/.exec(line) : null;
        if (m) listening(Number(m[1]));
      }
    }
  };
  read(child.stdout).catch(() => {});
  read(child.stderr).catch(() => {});
  const exited = child.status;
  const first = await Promise.race([port, exited.then(() => -1)]);
  if (first < 0) throw new Error(`main.ts exited before listening:\n${output.join("\n")}`);
  return {
    pid: child.pid,
    port: first,
    output,
    env,
    api: {
      name: "cachely (main.ts)",
      base: `http://127.0.0.1:${first}`,
      host: "bench.edge.test",
      path: (p) => `/~api${p}`,
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      const t = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 6_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Signs up over HTTP and creates tenant `bench` proxying `/~api` to `origin`. */
async function createBenchTenant(p: MainProcess, origin: string): Promise<void> {
  const base = `http://127.0.0.1:${p.port}`;
  const post = async (path: string, body: unknown, cookie = "") => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${text}`);
    return res.headers.get("set-cookie")?.split(";")[0] ?? "";
  };
  const cookie = await post("/api/auth/signup", {
    email: "owner@example.com",
    password: "correct horse battery",
  });
  await post("/api/tenants", {
    slug: "bench",
    cms: "generic",
    apiOrigin: origin,
    apiAuthMode: "bearer",
    token: "bench-upstream-token",
  }, cookie);
}

/**
 * A bench tool's run of main.ts against the bench origin (bench/origin.ts): the PostgreSQL
 * server from BENCH_DATABASE_URL (or TEST_DATABASE_URL), and the runtime from the tool's first
 * argument, a wrapper run as `<wrapper> run -A main.ts` (to add V8 flags or the inspector),
 * else this one.
 */
export async function withBenchMain<T>(
  fn: (p: MainProcess) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!base) throw new Error("set BENCH_DATABASE_URL (a PostgreSQL server)");
  const deno = Deno.args[0] ? [Deno.args[0]] : [Deno.execPath()];
  const origin = await spawnReady(Deno.execPath(), [
    "run",
    "-A",
    new URL("./origin.ts", import.meta.url).pathname,
  ]);
  try {
    return await withMainProcess(base, `http://127.0.0.1:${origin.ready.port}`, fn, env, deno);
  } finally {
    await origin.stop();
  }
}
