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

/**
 * `env` reaches lib/config.ts (ORIGIN is required). Extra V8 flags (BENCH_V8_FLAGS) are
 * appended after --expose-gc, which the control port's GC needs.
 */
export async function startCachely(env: Record<string, string>): Promise<CachelyProcess> {
  const here = new URL(".", import.meta.url);
  const v8 = ["--expose-gc", ...(Deno.env.get("BENCH_V8_FLAGS")?.split(/\s+/) ?? [])]
    .filter(Boolean).join(",");
  const child = await spawnReady(
    Deno.execPath(),
    [
      "run",
      "-A",
      `--v8-flags=${v8}`,
      "--config",
      new URL("../deno.json", here).pathname,
      new URL("./cachely_server.ts", here).pathname,
    ],
    env,
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
