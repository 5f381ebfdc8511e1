// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Test harness: the real program (bootstrap) on an empty database and in-memory KV.
 * `dbTest` registers a test once per backend: embedded PGlite always, and a real
 * PostgreSQL server when TEST_DATABASE_URL is set. Each test process keeps its
 * migrated databases in a pool and empties every table between tests (TRUNCATE …
 * RESTART IDENTITY), which is what a fresh database looks like at a fraction of the
 * cost of creating one; `openTestDb` still gives a truly fresh, unpooled one.
 */
import postgres from "postgres";
import { type Config, loadConfig } from "../lib/config.ts";
import { type DbHandle, openDb } from "../lib/db/client.ts";
import { type App, bootstrap, type BootstrapOptions } from "../lib/bootstrap.ts";
import { ManualClock } from "../lib/clock.ts";
import { silentLogger } from "../lib/log.ts";
import { listMigrations } from "../lib/db/migrate.ts";
import { sha256Hex } from "../lib/crypto/mod.ts";
import { cheapPasswordHashesForTests } from "../lib/auth/password.ts";

export const TEST_ENCRYPTION_KEY = btoa("0123456789abcdef0123456789abcdef");
export const APP_ORIGIN = "http://localhost:8000";
export const PROXY_DOMAIN = "localhost:8000";

export type Backend = "pglite" | "postgres";
/**
 * PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. TEST_BACKENDS=postgres runs
 * PostgreSQL only: .ci/run does so on Deno 2.5, Deploy's runtime, where the program only ever
 * talks to PostgreSQL (PGlite runs each test on 2.9).
 */
export const BACKENDS: Backend[] = (() => {
  const all: Backend[] = Deno.env.get("TEST_DATABASE_URL") ? ["pglite", "postgres"] : ["pglite"];
  const only = Deno.env.get("TEST_BACKENDS")?.split(",").map((b) => b.trim()).filter(Boolean);
  const chosen = only?.length ? all.filter((b) => only.includes(b)) : all;
  if (chosen.length === 0) throw new Error(`TEST_BACKENDS=${only} names none of ${all}`);
  return chosen;
})();

// Signing up costs argon2id's real price in every test otherwise (lib/auth/password.ts).
cheapPasswordHashesForTests();

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    KV_PATH: ":memory:",
    PUBLIC_URL: APP_ORIGIN,
    PROXY_DOMAIN,
    ALLOW_PRIVATE_UPSTREAMS: "true",
    // Tests sign up their admins without mail; tests/admin_emails_verified_test.ts covers
    // the default of a reachable server (verified addresses only).
    ADMIN_EMAILS_REQUIRE_VERIFIED: "false",
    LOG_LEVEL: "error",
    // Plan quotas are off unless a test opts in (tests/quota_*_test.ts): a test about another
    // area should not depend on the free plan's one tenant.
    QUOTAS: "off",
    // Every JSON success body is checked against its route's declared response schema, so
    // the whole suite tests the declarations (lib/http/response_check.ts).
    VALIDATE_API_RESPONSES: "true",
    ...env,
  });
}

let pgliteTemplate: Promise<Blob> | undefined;
const TEMPLATE_DIR = new URL("../.data/test-cache/", import.meta.url);

/**
 * A migrated PGlite data directory, cloned per database (0.8 s instead of 5 s for
 * initdb + migrations). It is kept on disk under .data/test-cache, keyed by the
 * migrations' content, so parallel test processes and later runs share it.
 */
function migratedPgliteDump(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const migrations = await listMigrations();
    const key = (await sha256Hex(migrations.map((m) => m.name + "\n" + m.sql).join("\n"))).slice(
      0,
      16,
    );
    const file = new URL(`pglite-${key}.tar`, TEMPLATE_DIR);
    try {
      return new Blob([await Deno.readFile(file)]);
    } catch { /* not built yet */ }
    const h = await openDb({ intervalTimer: false });
    const dump = await (h as unknown as { dump(): Promise<Blob> }).dump();
    await h.close();
    // Test modules run as workers of one process, so the temp name must be unique
    // per writer, not per pid. The cache is only a speed-up: failing to store it
    // (a concurrent writer, a read-only checkout) must not fail a test.
    const tmp = new URL(`pglite-${key}.${crypto.randomUUID()}.tmp`, TEMPLATE_DIR);
    try {
      await Deno.mkdir(TEMPLATE_DIR, { recursive: true });
      await Deno.writeFile(tmp, new Uint8Array(await dump.arrayBuffer()));
      await Deno.rename(tmp, file); // atomic: readers see a whole file or none
    } catch {
      await Deno.remove(tmp).catch(() => {});
    }
    return dump;
  })();
  return pgliteTemplate;
}

/**
 * A fresh, migrated database of its own (PostgreSQL: created now, dropped on close).
 * PGlite is opened without its interval timer (lib/db/client.ts pgliteWithoutTimer): a
 * pooled database outlives its test, and no timer of it may fire in a later one.
 */
export async function openTestDb(backend: Backend): Promise<DbHandle> {
  if (backend === "pglite") {
    return await openDb({ loadDataDir: await migratedPgliteDump(), intervalTimer: false }, false);
  }
  const { url, name } = await createPostgresDb(false);
  const handle = await openDb({ url, maxConnections: 4 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const a = postgres(Deno.env.get("TEST_DATABASE_URL")!, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * Creates an empty PostgreSQL database on TEST_DATABASE_URL. `keep` is for the pool: the
 * database is named after this process and dropped by a later run once the process is gone.
 */
export async function createPostgresDb(keep: boolean): Promise<{ url: string; name: string }> {
  const base = Deno.env.get("TEST_DATABASE_URL")!;
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const name = keep ? `cachely_p_${Deno.pid}_${suffix}` : `cachely_t_${suffix}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

/**
 * The process's migrated databases between tests: PGlite handles (in memory, so kept open)
 * and PostgreSQL URLs. A PostgreSQL database is kept but not its connections: their sockets
 * and postgres.js's idle timers would outlive the test (the sanitizers are on).
 */
const pglitePool: DbHandle[] = [];
const postgresPool: string[] = [];
let staleDropped: Promise<void> | undefined;

/** A migrated, empty database from the process's pool; close() gives it back. */
async function acquirePooledDb(backend: Backend): Promise<DbHandle> {
  return backend === "pglite" ? await acquirePglite() : await acquirePostgres();
}

async function acquirePglite(): Promise<DbHandle> {
  let handle = pglitePool.pop();
  if (handle) handle = await emptied(handle);
  const inner = handle ?? await openTestDb("pglite");
  let released = false;
  return {
    ...inner,
    close() {
      if (!released) {
        released = true;
        pglitePool.push(inner);
      }
      return Promise.resolve();
    },
  };
}

async function acquirePostgres(): Promise<DbHandle> {
  staleDropped ??= dropDatabasesOfDeadProcesses();
  await staleDropped;
  let url = postgresPool.pop();
  let handle: DbHandle | undefined;
  if (url) handle = await emptied(await openDb({ url, maxConnections: 4 }, false));
  if (!handle) {
    url = (await createPostgresDb(true)).url;
    handle = await openDb({ url, maxConnections: 4 });
  }
  const inner = handle;
  const kept = url!;
  let released = false;
  return {
    ...inner,
    async close() {
      if (released) return;
      released = true;
      await inner.close();
      postgresPool.push(kept);
    },
  };
}

/** The database with every table emptied, or undefined (closed) when that failed. */
async function emptied(h: DbHandle): Promise<DbHandle | undefined> {
  try {
    await emptyAllTables(h);
    return h;
  } catch {
    await h.close().catch(() => {});
    return undefined;
  }
}

async function emptyAllTables(h: DbHandle): Promise<void> {
  const tables = await h.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
  );
  if (tables.length === 0) return;
  const list = tables.map((t) => `"${t.tablename}"`).join(", ");
  await h.exec(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
}

/** Pooled PostgreSQL databases carry their process id; drop those whose process is gone. */
async function dropDatabasesOfDeadProcesses(): Promise<void> {
  const a = postgres(Deno.env.get("TEST_DATABASE_URL")!, { max: 1, onnotice: () => {} });
  try {
    const rows = await a.unsafe<{ datname: string }[]>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'cachely_p\\_%'",
    );
    for (const { datname } of rows) {
      const pid = Number(datname.split("_")[2]);
      if (!Number.isInteger(pid) || processAlive(pid)) continue;
      await a.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    }
  } finally {
    await a.end();
  }
}

function processAlive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

export type TestApp = App & { clock: ManualClock; backend: Backend };

export type TestAppOptions = Omit<BootstrapOptions, "dbHandle" | "kv" | "clock"> & {
  env?: Record<string, string>;
  /** KV to use instead of a fresh in-memory one (e.g. one that fails on demand). */
  kv?: Deno.Kv;
  clock?: ManualClock;
};

export async function createTestApp(backend: Backend, opts: TestAppOptions = {}): Promise<TestApp> {
  const clock = opts.clock ?? new ManualClock(Date.now());
  const app = await bootstrap(testConfig(opts.env), {
    ...opts,
    dbHandle: await acquirePooledDb(backend),
    kv: opts.kv ?? await Deno.openKv(":memory:"),
    clock,
    log: opts.log ?? silentLogger,
  });
  return { ...app, clock, backend };
}

/**
 * Sanitizer settings of a test whose leaks cannot be fixed where they arise: give them with a
 * comment saying why. The default is Deno's: both on.
 */
export type Sanitizers = { sanitizeOps?: boolean; sanitizeResources?: boolean };

/** Registers `fn` once per backend, with a fresh app that is closed afterwards. */
export function dbTest(
  name: string,
  fn: (app: TestApp) => Promise<void>,
  opts: TestAppOptions & Sanitizers & { ignore?: boolean } = {},
): void {
  const { sanitizeOps, sanitizeResources, ignore, ...appOpts } = opts;
  for (const backend of BACKENDS) {
    Deno.test({
      name: `${name} [${backend}]`,
      ignore,
      sanitizeOps,
      sanitizeResources,
      async fn() {
        const app = await createTestApp(backend, appOpts);
        try {
          await fn(app);
        } finally {
          await app.close();
        }
      },
    });
  }
}

export type JsonResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

/** An HTTP client over the in-process handler, with a cookie jar (one per user). */
export class Client {
  cookies = new Map<string, string>();
  bearer?: string;
  constructor(readonly app: App, readonly origin = APP_ORIGIN) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    const url = path.startsWith("http") ? path : `${this.origin}${path}`;
    const h = new Headers(headers);
    if (this.cookies.size && !h.has("cookie")) {
      h.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    if (this.bearer && !h.has("authorization")) h.set("authorization", `Bearer ${this.bearer}`);
    if (method !== "GET" && method !== "HEAD" && !h.has("origin")) {
      h.set("origin", new URL(url).origin);
    }
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      if (!h.has("content-type")) h.set("content-type", "application/json");
    }
    const res = await this.app.handler(new Request(url, { method, headers: h, body: payload }), {
      remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
      completed: Promise.resolve(),
    });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(";");
      const i = pair.indexOf("=");
      const k = pair.slice(0, i).trim();
      const v = pair.slice(i + 1).trim();
      if (v === "" || /max-age=0/i.test(sc)) this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PUT", path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PATCH", path, body, headers);
  }
  delete<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("DELETE", path, body, headers);
  }
}

let userCounter = 0;

/** Signs up a fresh user and returns a logged-in client. */
export async function signUp(
  app: App,
  email?: string,
): Promise<Client & { email: string; userId: string }> {
  const c = new Client(app) as Client & { email: string; userId: string };
  c.email = email ?? `user${++userCounter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const r = await c.post("/api/auth/signup", { email: c.email, password: "correct horse battery" });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
  c.userId = r.body.user.id;
  return c;
}

/** Creates a tenant owned by `owner` and returns its slug. */
export async function createTenant(
  owner: Client,
  body: Record<string, unknown> = {},
): Promise<string> {
  const slug = (body.slug as string) ?? `t-${crypto.randomUUID().slice(0, 8)}`;
  // A generic tenant must name something to serve: an asset origin unless the body gives one.
  const serves = ["originUrl", "apiOrigin", "websiteOrigin"].some((k) => body[k] !== undefined);
  const origin = body.cms === undefined && !serves
    ? { originUrl: "https://assets.example.com" }
    : {};
  const r = await owner.post("/api/tenants", { slug, cms: "generic", ...origin, ...body });
  if (r.status !== 201) throw new Error(`create tenant failed: ${r.status} ${r.text}`);
  return slug;
}

/** Serves a handler on a real loopback port (for SDKs, browsers and benchmarks). */
export function serveOnLoopback(
  handler: Deno.ServeHandler,
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: string; key: string },
): { url: string; port: number; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, handler);
  const port = server.addr.port;
  const scheme = tls ? "https" : "http";
  return { url: `${scheme}://127.0.0.1:${port}`, port, close: () => server.shutdown() };
}

/** The numeric id of a tenant, for tests that seed rows directly. */
export async function tenantIdOf(app: TestApp, slug: string): Promise<number> {
  const [{ id }] = await app.services.dbHandle.query<{ id: number }>(
    `SELECT id FROM tenants WHERE slug = '${slug.replaceAll("'", "''")}'`,
  );
  return id;
}

/**
 * Another instance on `app`'s database and KV (as a second process would be): closing it
 * leaves both open for `app`.
 */
export async function secondInstance(app: TestApp, env: Record<string, string> = {}): Promise<App> {
  const kv = app.services.kv;
  const shared = new Proxy(kv, {
    get(t, p) {
      if (p === "close") return () => {};
      const v = Reflect.get(t, p);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
  return await bootstrap(testConfig(env), {
    dbHandle: { ...app.services.dbHandle, close: async () => {} },
    kv: shared,
    clock: app.clock,
    log: silentLogger,
  });
}
