/**
 * Database outage (issue 8): while PostgreSQL cannot be reached, management requests
 * fail fast with 503 and Retry-After, the edge keeps serving from its snapshot, and
 * everything recovers by itself once the database is back. The outage is real: the
 * app reaches PostgreSQL through a TCP forwarder that the test closes and reopens.
 */
import postgres from "postgres";
import { assertEquals } from "./assert.ts";
import { Client, signUp, testConfig } from "./harness.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { silentLogger } from "../lib/log.ts";
import { migrateUnderLock } from "../lib/db/migrate_lock.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("db_outage_test: skipped: TEST_DATABASE_URL is not set");

/** A TCP forwarder to host:port that can be stopped (connections cut) and restarted. */
function forwarder(host: string, port: number) {
  let listener: Deno.TcpListener | null = null;
  const conns = new Set<Deno.Conn>();
  let localPort = 0;
  const start = () => {
    if (listener) return;
    listener = Deno.listen({ hostname: "127.0.0.1", port: localPort });
    localPort = (listener.addr as Deno.NetAddr).port;
    (async () => {
      for await (const c of listener!) {
        const up = await Deno.connect({ hostname: host, port }).catch(() => null);
        if (!up) {
          c.close();
          continue;
        }
        conns.add(c).add(up);
        const pipe = (a: Deno.Conn, b: Deno.Conn) =>
          a.readable.pipeTo(b.writable).catch(() => {}).finally(() => {
            for (const x of [a, b]) {
              conns.delete(x);
              try {
                x.close();
              } catch { /* closed */ }
            }
          });
        pipe(c, up);
        pipe(up, c);
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
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      conns.clear();
    },
    start,
  };
}

Deno.test({
  name: "database outage: management 503 with Retry-After, edge keeps serving, then recovery",
  ignore: !BASE,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
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

      fwd.stop(); // the outage
      const during = await owner.put(`/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      assertEquals(during.status, 503, during.text);
      assertEquals(during.headers.get("retry-after"), "5");
      assertEquals(during.body.error.code, "unavailable");
      const edge = await visitor.get("/~api/posts?during=outage");
      assertEquals(edge.status, 200, "the edge serves from its snapshot");

      fwd.start(); // the database is back: no restart needed
      let after = await owner.put(`/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      for (let i = 0; i < 20 && after.status === 503; i++) {
        await new Promise((r) => setTimeout(r, 250));
        after = await owner.put(`/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      }
      assertEquals(after.status, 200, after.text);
    } finally {
      fwd.start();
      await app.close().catch(() => {});
      fwd.stop();
      await upstream.shutdown();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
});
