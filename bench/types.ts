/**
 * The scenario hook: every file in bench/scenarios/ exports `scenario: Scenario`.
 * run.ts starts the origin, Cachely and nginx once, then runs each scenario in file
 * name order with a BenchContext and writes their tables into RESULTS.md.
 */
import type { CachelyProcess } from "./cachely_proc.ts";

/** A server the load generator can drive. `path(p)` maps an origin path to its URL path. */
export type Target = {
  name: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Host header to send (Cachely routes tenants by host). */
  host?: string;
  /** Origin path → request path on this target (`/data.json` → `/~api/data.json` on Cachely). */
  path(originPath: string): string;
};

export type WrkOptions = {
  connections?: number;
  durationSec?: number;
  /** Each request gets a unique path `<prefix><n>` (cache misses) instead of a fixed one. */
  uniquePrefix?: string;
  /** With uniquePrefix: distinct paths per run at most (then the last one repeats; default 2^31). */
  uniqueKeys?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Zipf workload: each request picks one of `keys` paths `<prefix><rank>` with probability
   * ∝ 1/rank^s (s = 1.0 puts ~83% of requests on the top 20% of 10,000 keys).
   */
  zipf?: { prefix: string; keys: number; s?: number };
};

export type WrkResult = {
  requests: number;
  durationSec: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Socket errors plus non-2xx/3xx responses. */
  errors: number;
  /** The server's CPU time (user + system) per request, when measured (helpers.interleaved). */
  cpuUs?: number;
};

export type BenchContext = {
  targets: {
    cachely: Target;
    nginx: Target;
    origin: Target;
    /** Bare Deno.serve, the body with one header (bench/floor.ts `/one`). */
    floorOne: Target;
    /** Bare Deno.serve + fetch() from the origin, body streamed back (bench/floor.ts `/proxy`). */
    floorProxy: Target;
    /** Bare Deno.serve + fetch(), the body read into memory and sent (bench/floor.ts `/buffered`). */
    floorBuffered: Target;
    /** Bare Deno.serve, the body with the header set registered by registerSameHeaders. */
    floorSame: Target;
    /** The same response as a clone of a prebuilt Response, Age set per request (`/clone`). */
    floorClone: Target;
    /**
     * The clone, after reading If-None-Match, If-Modified-Since and Origin as a cache that
     * honours validators must (`/clonev`): reading any request header costs Deno.serve a
     * copy of the header list and a promise (bench/ANALYSIS.md "Hit templates, start-up imports, what the noise hides").
     */
    floorCloneRead: Target;
    /** nginx caching in front of Cachely's CDN-offload tenant (CDN stand-in). */
    cdn: Target;
    /** Cachely's image-host tenant: origin path `/bench/video/upload/…` → `/video/upload/…`. */
    cachelyImg: Target;
    /** Cachely's CDN-offload tenant, addressed directly. */
    cachelyCdn: Target;
  };
  /** Gives floorSame the header set Cachely sent for `originPath` (date and length left out). */
  registerSameHeaders(originPath: string, headers: [string, string][]): Promise<void>;
  /** Cachely's process id (RSS from /proc) and its control port's memory report. */
  cachelyPid: number;
  /** The floors' process id (bench/floor.ts), for perf instruction counts. */
  floorPid: number;
  cachelyMemory(): Promise<CachelyMemory>;
  /** Empties Cachely's in-memory edge cache. */
  clearCachelyCache(): Promise<void>;
  /**
   * Another Cachely process with the same environment (plus `env`), stopped with the run:
   * for figures a process's history would skew (RSS after a fill, in a fresh process).
   */
  startCachely(env?: Record<string, string>): Promise<CachelyProcess>;
  /** Environment Cachely runs with (EDGE_CACHE_MAX_OBJECT_BYTES, …), as scenarios set it. */
  cachelyEnv: Record<string, string>;
  durationSec: number;
  connections: number;
  rounds: number;
  /** Runs wrk against `target` for `originPath` (mapped through target.path). */
  wrk(target: Target, originPath: string, opts?: WrkOptions): Promise<WrkResult>;
  /** How many requests the origin served for exactly this path. */
  originCount(path: string): Promise<number>;
  /** A personal access token of the owner of tenant `bench` (management API as Bearer). */
  cachelyToken: string;
  /** Management API origin of the Cachely under test, e.g. to create AI rules. */
  cachelyApi: string;
  log(msg: string): void;
};

export type ResultRow = {
  case: string;
  target: string;
  rps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  errors?: number;
  note?: string;
};

/** A target from the issue, checked against measured numbers. */
export type Check = { name: string; want: string; got: string; pass: boolean };

export type ScenarioResult = {
  title: string;
  rows: ResultRow[];
  checks?: Check[];
  notes?: string[];
};

export type Scenario = {
  name: string;
  /** Environment added to the Cachely process (e.g. OPENAI_BASE_URL of a fake model). */
  env?: Record<string, string>;
  run(ctx: BenchContext): Promise<ScenarioResult>;
};

/** bench/cachely_server.ts control port: Deno.memoryUsage() after a GC, plus the edge cache. */
export type CachelyMemory = {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  entries: number;
  cacheBytes: number;
  /** Prebuilt hit responses kept (edge/cache/hit_templates.ts) and the bytes charged to them. */
  templates: number;
  templateBytes: number;
  /** V8's committed bytes per heap space (new_space, old_space, …). */
  spaces: Record<string, number>;
  /** glibc mallinfo2 (bytes), when libc could be opened. */
  malloc: { arena: number; hblkhd: number; inUse: number; free: number; top: number } | null;
};
