/** Starts bench/cachely_server.ts as a child process and addresses its API tenant. */
import { type Child, spawnReady } from "./proc.ts";
import type { CachelyMemory, Target } from "./types.ts";

/** A running Cachely bench server. */
export type CachelyProcess = {
  child: Child;
  pid: number;
  /** Tenant `bench` (API proxy): origin path `/x` → `/~api/x`. */
  api: Target;
  /** Memory after a full GC, from the control port. */
  memory(): Promise<CachelyMemory>;
  /** Empties the in-memory edge cache. */
  clear(): Promise<void>;
};

/** deno.json's `start` task, the command line production runs. */
function startTask(): string {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  return config.tasks.start;
}

/**
 * The V8 flags `deno task start` runs Cachely with (deno.json; docs/decisions.md "Edge cache
 * memory"): the bench measures the process production runs.
 */
export function startTaskV8Flags(): string[] {
  const flags = /--v8-flags=(\S+)/.exec(startTask())?.[1];
  return flags ? flags.split(",") : [];
}

/**
 * The environment `deno task start` sets for Cachely (`NAME=value` before `deno run` in
 * deno.json: MALLOC_MMAP_THRESHOLD_, docs/decisions.md "Edge cache memory").
 */
export function startTaskEnv(): Record<string, string> {
  const run = /((?:[A-Z_][A-Z0-9_]*=\S+\s+)+)deno run/.exec(startTask())?.[1] ?? "";
  return Object.fromEntries(
    run.trim().split(/\s+/).filter(Boolean).map((kv: string) => {
      const i = kv.indexOf("=");
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
}

/**
 * `--v8-flags=` for a bench Cachely: the start task's flags, --expose-gc (the control port's
 * GC needs it), then BENCH_V8_FLAGS (a later flag wins, so these can override the start task's).
 */
export function benchV8Flags(): string {
  return [
    ...startTaskV8Flags(),
    "--expose-gc",
    ...(Deno.env.get("BENCH_V8_FLAGS")?.split(/\s+/) ?? []),
  ].filter(Boolean).join(",");
}

/** `env` reaches lib/config.ts (ORIGIN is required). */
export async function startCachely(env: Record<string, string>): Promise<CachelyProcess> {
  const here = new URL(".", import.meta.url);
  const child = await spawnReady(
    Deno.execPath(),
    [
      "run",
      "-A",
      `--v8-flags=${benchV8Flags()}`,
      "--config",
      new URL("../deno.json", here).pathname,
      new URL("./cachely_server.ts", here).pathname,
    ],
    { ...startTaskEnv(), ...env },
    120_000,
  );
  const control = child.ready.control as string;
  return {
    child,
    pid: child.pid,
    api: {
      name: "cachely",
      base: `http://127.0.0.1:${child.ready.port}`,
      host: child.ready.host as string,
      path: (p) => `/~api${p}`,
    },
    memory: async () => await (await fetch(`${control}/memory`)).json(),
    clear: async () => {
      await (await fetch(`${control}/clear`, { method: "POST" })).body?.cancel();
    },
  };
}
