/**
 * Database outage: while PostgreSQL cannot be reached, management requests
 * fail fast with 503 and Retry-After, the edge keeps serving from its snapshot, and
 * everything recovers by itself once the database is back. The outage is real: the
 * app reaches PostgreSQL through a TCP forwarder that the test closes and reopens.
 */
import postgres from "postgres";
import { assertEquals } from "./assert.ts";
import { Client, type JsonResponse, signUp, testConfig } from "./harness.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { silentLogger } from "../lib/log.ts";
import { migrateUnderLock } from "../lib/db/migrate_lock.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("db_outage_test: skipped: TEST_DATABASE_URL is not set");

/**
 * A TCP forwarder to host:port that can be stopped (connections cut) and restarted, or
 * turned into a black hole: connections stay open and new ones are accepted, but no
 * byte moves either way until `resume()` (a hung server, or a partition TCP rides out).
 */
function forwarder(host: string, port: number) {
  let listener: Deno.TcpListener | null = null;
  const conns = new Set<Deno.Conn>();
  let localPort = 0;
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const closeAll = (...xs: Deno.Conn[]) => {
    for (const x of xs) {
      conns.delete(x);
      try {
        x.close();
      } catch { /* closed */ }
    }
  };
  const pipe = async (a: Deno.Conn, b: Deno.Conn) => {
    const reader = a.readable.getReader();
    const writer = b.writable.getWriter();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        await gate; // black hole: held here (and TCP pushes back) until resume()
        await writer.write(value);
      }
    } catch {
      /* cut */
    } finally {
      closeAll(a, b);
    }
  };
  const start = () => {
    if (listener) return;
    listener = Deno.listen({ hostname: "127.0.0.1", port: localPort });
    localPort = (listener.addr as Deno.NetAddr).port;
    (async () => {
      for await (const c of listener!) {
        conns.add(c);
        (async () => {
          await gate;
          const up = await Deno.connect({ hostname: host, port }).catch(() => null);
          if (!up) return closeAll(c);
          conns.add(up);
          pipe(c, up);
          pipe(up, c);
        })();
      }
    })().catch(() => {});
  };
  start();
  return {
    get port() {
      return localPort;
    },
    stop() {
      listener?.close();
      listener = null;
      closeAll(...conns);
    },
    start,
    blackHole() {
      gate = new Promise((r) => open = r);
    },
    resume() {
      open();
      gate = Promise.resolve();
    },
  };
}

/** Fails (instead of hanging the suite) when `p` takes longer than `ms`. */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

type Outage = {
  fwd: ReturnType<typeof forwarder>;
  /** The test database, reached directly (not through the forwarder). */
  directUrl: string;
  owner: Awaited<ReturnType<typeof signUp>>;
  slug: string;
  visitor: Client;
};

/**
 * The real program on a fresh PostgreSQL database reached through a forwarder, with
 * one tenant whose snapshot the edge has already served once.
 */
async function withOutageApp(fn: (o: Outage) => Promise<void>) {
  const name = `cachely_o_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const direct = new URL(BASE!);
  direct.pathname = `/${name}`;
  await migrateUnderLock(direct.toString());
  const fwd = forwarder(direct.hostname, Number(direct.port || 5432));
  const viaFwd = new URL(direct);
  viaFwd.host = `127.0.0.1:${fwd.port}`;
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ hello: "world" }),
  );
  const app = await bootstrap(
    testConfig({ DATABASE_URL: viaFwd.toString(), DB_REQUEST_TIMEOUT_MS: "2000" }),
    { log: silentLogger },
  );
  try {
    const owner = await signUp(app);
    const slug = `o-${crypto.randomUUID().slice(0, 8)}`;
    const created = await owner.post("/api/tenants", {
      slug,
      cms: "generic",
      apiOrigin: `http://127.0.0.1:${upstream.addr.port}`,
    });
    assertEquals(created.status, 201, created.text);
    const visitor = new Client(app, `http://${slug}.localhost:8000`);
    assertEquals((await visitor.get("/~api/posts")).status, 200);
    await fn({ fwd, directUrl: direct.toString(), owner, slug, visitor });
  } finally {
    fwd.resume();
    fwd.start();
    await within(app.close(), 30_000, "app.close").catch(() => {});
    fwd.stop();
    await upstream.shutdown();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** A 503 `unavailable` with Retry-After: what a management request answers in an outage. */
function assertUnavailable(res: JsonResponse) {
  assertEquals(res.status, 503, res.text);
  assertEquals(res.headers.get("retry-after"), "5");
  assertEquals(res.body.error.code, "unavailable");
}

/** Repeats the api-config PUT until it is no longer 503 (the pool recovers by itself). */
async function putUntilRecovered(o: Outage) {
  const put = () =>
    within(o.owner.put(`/api/tenants/${o.slug}/api-config`, { cacheTTL: 99 }), 15_000, "PUT");
  let after = await put();
  for (let i = 0; i < 60 && after.status === 503; i++) {
    await new Promise((r) => setTimeout(r, 250));
    after = await put();
  }
  assertEquals(after.status, 200, after.text);
}

// pgTest: stops and restarts a PostgreSQL server (child processes) under the app
const pgTest = { ignore: !BASE, sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...pgTest,
  name: "database outage: management 503 with Retry-After, edge keeps serving, then recovery",
  fn: () =>
    withOutageApp(async (o) => {
      o.fwd.stop(); // the outage: connections cut, new ones refused
      assertUnavailable(
        await o.owner.put(`/api/tenants/${o.slug}/api-config`, { cacheTTL: 99 }),
      );
      const edge = await o.visitor.get("/~api/posts?during=outage");
      assertEquals(edge.status, 200, "the edge serves from its snapshot");
      o.fwd.start(); // the database is back: no restart needed
      await putUntilRecovered(o);
    }),
});

Deno.test({
  ...pgTest,
  name: "database black hole: a server that accepts but never answers is 503 fast, never a hang",
  fn: () =>
    withOutageApp(async (o) => {
      o.fwd.blackHole(); // pooled connections and new ones: no answer at all
      // The app's deadline is 2 s; a hang is caught here instead of stalling the suite.
      const put = await within(
        o.owner.put(`/api/tenants/${o.slug}/api-config`, { cacheTTL: 99 }),
        15_000,
        "PUT during the black hole",
      );
      assertUnavailable(put);
      assertUnavailable(
        await within(o.owner.get(`/api/tenants/${o.slug}`), 15_000, "GET during the black hole"),
      );
      const edge = await o.visitor.get("/~api/posts?during=black-hole");
      assertEquals(edge.status, 200, "the edge never touches the database");
      o.fwd.resume();
      await putUntilRecovered(o);
    }),
});

Deno.test({
  ...pgTest,
  name: "database lock wait: a statement stuck on a row lock is cancelled and answered 503",
  fn: () =>
    withOutageApp(async (o) => {
      const other = postgres(o.directUrl, { max: 1, onnotice: () => {} });
      const locker = await other.reserve();
      try {
        await locker.unsafe("BEGIN");
        await locker`SELECT id FROM tenants WHERE slug = ${o.slug} FOR UPDATE`;
        assertUnavailable(
          await within(
            o.owner.put(`/api/tenants/${o.slug}/api-config`, { cacheTTL: 99 }),
            15_000,
            "PUT behind a row lock",
          ),
        );
        await locker.unsafe("ROLLBACK");
        await putUntilRecovered(o);
      } finally {
        await locker.unsafe("ROLLBACK").catch(() => {});
        locker.release();
        await other.end();
      }
    }),
});
