/**
 * Opens the database: PostgreSQL through postgres.js when a URL is given, otherwise
 * embedded PGlite (on disk under DATA_DIR, or in memory for tests). Both are driven
 * through the same Drizzle API.
 */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema/mod.ts";
import { applyMigrations } from "./migrate.ts";
import { withDeadline } from "./deadline.ts";
import { renewablePool } from "./pool_watchdog.ts";
import { type Logger, silentLogger } from "../log.ts";
import type { Sql } from "postgres";
import { bootMark } from "../boot_trace.ts";
import { postgresAddress } from "../database_url.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DbHandle = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a multi-statement SQL script. */
  exec(sql: string): Promise<void>;
  /** Runs a multi-statement SQL script inside one transaction (migrations). */
  execInTransaction(sql: string): Promise<void>;
  /** Runs one parameterless query and returns its rows. */
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /** PostgreSQL: a fresh pool now when the last statement missed its deadline (shutdown). */
  renewIfSuspect?(): Promise<void>;
  close(): Promise<void>;
};

export type OpenDbOptions =
  | {
    url: string;
    maxConnections?: number;
    /** Connect deadline, and the deadline of every statement (0: none, lib/db/deadline.ts). */
    requestTimeoutMs?: number;
    /** Where a replaced pool is logged (lib/db/pool_watchdog.ts). */
    log?: Logger;
  }
  | {
    dataDir?: string;
    loadDataDir?: Blob;
    /**
     * False: PostgreSQL's interval timer is never armed (tests, see pgliteWithoutTimer).
     * Default true.
     */
    intervalTimer?: boolean;
  };

export async function openDb(opts: OpenDbOptions, migrate = true): Promise<DbHandle> {
  const handle = "url" in opts
    ? await openPostgres(opts.url, opts.maxConnections, opts.requestTimeoutMs, opts.log)
    : await openPglite(opts);
  if (migrate) await applyMigrations(handle);
  return handle;
}

/**
 * Seconds the pool's connections get to finish at close before they are cut. At shutdown the
 * final flush has already run and the requests still running were answered 503: a statement
 * still busy then (one waiting on a lock) is not worth waiting for, and Deploy kills at 5 s.
 */
const CLOSE_SECONDS = 0.25;

// Drivers are imported when used: an instance on PostgreSQL never loads PGlite (cold start).
async function openPostgres(
  url: string,
  max = 4,
  requestTimeoutMs = 0,
  log: Logger = silentLogger,
): Promise<DbHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzleOverPostgres } = await import("./drizzle_postgres.ts");
  bootMark("db driver");
  // prepare:false and a small pool keep this safe behind transaction poolers (Supabase :6543).
  // A short connect timeout and a deadline on every statement: during an outage (refused,
  // or a server that never answers, or a lock wait) a request fails fast (503), never hangs.
  const pool = renewablePool(url, () =>
    postgres(url, {
      ...postgresAddress(url),
      max,
      prepare: false,
      idle_timeout: 20,
      connect_timeout: Math.max(1, Math.ceil((requestTimeoutMs || 5_000) / 1000)),
      onnotice: () => {},
    }), log);
  const sql = pool.sql as unknown as Sql;
  const bounded = withDeadline(pool.sql, requestTimeoutMs, pool);
  return {
    db: drizzleOverPostgres(bounded as unknown as Sql, schema) as Db,
    kind: "postgres",
    exec: async (text) => {
      await sql.unsafe(text);
    },
    execInTransaction: async (text) => {
      await sql.begin((tx) => tx.unsafe(text));
    },
    query: async <T>(text: string) => (await bounded.unsafe(text)) as unknown as T[],
    renewIfSuspect: () => pool.renewIfSuspect(),
    close: () => pool.end(CLOSE_SECONDS),
  };
}

/**
 * PostgreSQL's memory settings for the embedded database. PGlite's own leave shared_buffers at
 * 128 MB inside its WebAssembly memory, which the server touches and never gives back: an idle
 * `deno task start` held ~180 MB more with them (docs/operations.md "Memory"). One process and
 * a small database need little: 16 MB of shared buffers hold every table of a small install.
 */
const PGLITE_MEMORY_SETTINGS = [
  "-c",
  "shared_buffers=16MB",
  "-c",
  "work_mem=2MB",
  "-c",
  "maintenance_work_mem=8MB",
  "-c",
  "wal_buffers=1MB",
  "-c",
  "temp_buffers=2MB",
];

async function openPglite(
  opts: { dataDir?: string; loadDataDir?: Blob; intervalTimer?: boolean },
): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  if (opts.dataDir) await Deno.mkdir(opts.dataDir, { recursive: true });
  const client = new PGlite({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS],
    ...(opts.intervalTimer === false ? { extensions: { noTimer: pgliteWithoutTimer } } : {}),
  });
  await client.waitReady;
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: "pglite",
    exec: async (text) => {
      await client.exec(text);
    },
    execInTransaction: async (text) => {
      await client.transaction((tx) => tx.exec(text));
    },
    query: async <T>(text: string) => (await client.query<T>(text)).rows,
    close: () => client.close(),
    // PGlite's dump is used by the test harness to clone a migrated database quickly.
    ...({ dump: () => client.dumpDataDir("none") } as Record<string, unknown>),
  };
}

/**
 * PostgreSQL's setitimer, as Emscripten builds it, is a JavaScript setTimeout. A statement runs
 * synchronously inside WebAssembly, so that timer can never interrupt one (statement_timeout
 * cannot fire in PGlite); what it does arm is the idle statistics flush (PGSTAT_IDLE_INTERVAL,
 * 10 s after a statement that left statistics pending), and PostgreSQL leaves it running when
 * that timeout is disabled. A test database that lives across tests (tests/harness.ts keeps a
 * pool) would leave that timer to fire in a later test, which the test sanitizers rightly
 * report (Deno 2.5 does). This PGlite extension replaces the timer with one never armed;
 * pending statistics then wait for the next statement instead of an idle flush.
 */
const pgliteWithoutTimer = {
  name: "without-interval-timer",
  setup: (_pg: unknown, emscriptenOpts: EmscriptenOpts) => {
    const instantiate = emscriptenOpts.instantiateWasm;
    if (!instantiate) throw new Error("PGlite: no instantiateWasm to wrap");
    return Promise.resolve({
      emscriptenOpts: {
        ...emscriptenOpts,
        instantiateWasm: (imports: WasmImports, done: unknown) => {
          // A renamed import would bring the timer back unnoticed: fail instead.
          if (typeof imports.env?._setitimer_js !== "function") {
            throw new Error("PGlite: no _setitimer_js import to replace");
          }
          imports.env._setitimer_js = () => 0;
          return instantiate(imports, done);
        },
      },
    });
  },
};

type WasmImports = { env?: Record<string, unknown> };
type EmscriptenOpts = {
  instantiateWasm?: (imports: WasmImports, done: unknown) => unknown;
  [k: string]: unknown;
};
