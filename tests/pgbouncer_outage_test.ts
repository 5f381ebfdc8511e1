/**
 * Outages behind a pooler: a real pgbouncer (transaction mode) in front of
 * a throwaway PostgreSQL cluster (tests/pg_cluster.ts), a freshly started instance
 * (`deno run -A main.ts`) through it, then PostgreSQL goes down and comes back. The
 * instance must stay up, answer every management request 503 with Retry-After while the
 * database is away (never 500), keep serving the edge from its snapshot and recover by
 * itself; an instance started during the outage must wait (logging why) instead of
 * exiting, and serve once the database is back. Skips, saying why, without pgbouncer or
 * PostgreSQL's server binaries.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  Agent,
  edgeGet,
  type Instance,
  pgbouncerBinary,
  sharedWorld,
  signUp,
  startInstance,
  startPgbouncer,
  stop,
} from "./instances.ts";
import { clusterBinaries, throwawayCluster } from "./pg_cluster.ts";

const PGBOUNCER = pgbouncerBinary() !== undefined;
const SKIP = !PGBOUNCER
  ? "pgbouncer is not installed (apt-get install pgbouncer)"
  : !clusterBinaries()
  ? "PostgreSQL's server binaries (initdb, pg_ctl) are not installed"
  : null;
if (SKIP) console.log(`pgbouncer_outage_test: skipped: ${SKIP}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "PostgreSQL restart behind pgbouncer: no exit, 503 + Retry-After throughout, recovery",
  ignore: SKIP !== null,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const cluster = await throwawayCluster();
    if (typeof cluster === "string") {
      console.log(`pgbouncer_outage_test: skipped: ${cluster}`);
      return;
    }
    const world = await sharedWorld(cluster.url, "cachely_out");
    // server_login_retry short: the test sees pgbouncer's "login has been failing" answers
    // and still ends quickly.
    const bouncer = await startPgbouncer(
      world.dir,
      new URL(world.url),
      "server_login_retry = 2\nserver_connect_timeout = 2\nquery_wait_timeout = 5\n",
    );
    const upstream = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => Response.json({ ok: true }),
    );
    const env = {
      ...world.env,
      DATABASE_URL: bouncer!.url,
      MIGRATION_DATABASE_URL: world.url.toString(),
      DB_REQUEST_TIMEOUT_MS: "2000",
    };
    const instances: Instance[] = [];
    let late: Promise<Instance> | null = null;
    try {
      const a = await startInstance(env);
      instances.push(a);
      const owner = await signUp(a);
      const slug = `out-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(a, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: `http://127.0.0.1:${upstream.addr.port}`,
      });
      assertEquals(created.status, 201, created.text);
      const host = `${slug}.localhost:8000`;
      assertEquals(await edgeGet(a, host, "/~api/warm"), 200);

      await cluster.stop("immediate"); // PostgreSQL crashes: pooled server connections die
      let exitedA = false;
      a.exited.then(() => exitedA = true);
      // An instance started now must wait for the database, not exit.
      late = startInstance(env);
      late.catch(() => {});
      const seen: string[] = [];
      let answered503 = 0;
      const visitor = new Agent();
      const until = performance.now() + 8_000;
      for (let i = 0; performance.now() < until; i++) {
        const cut = (e: unknown) => ({ status: 0, body: null, text: `no answer: ${e}` });
        const rs = await Promise.all([
          owner.req(a, "PUT", `/api/tenants/${slug}/api-config`, { cacheTTL: 60 + i }).catch(cut),
          owner.req(a, "GET", `/api/tenants/${slug}`).catch(cut),
          visitor.req(a, "POST", "/api/auth/login", { email: owner.email, password: "wrong pass" })
            .catch(cut),
        ]);
        const dashboard = await owner.req(a, "GET", `/dashboard/${slug}`).catch(cut);
        if (dashboard.status !== 503) seen.push(`page ${dashboard.status}`);
        for (const [k, r] of rs.entries()) {
          const ok = r.status === 503 && r.body?.error?.code === "unavailable";
          // The log-in limits count each attempt in KV before the database is read, so once
          // these wrong-password attempts spend them (fast failures: many a second), 429 first.
          const limited = k === 2 && r.status === 429 && r.body?.error?.code === "rate_limited";
          if (ok) answered503++;
          else if (!limited) seen.push(`${r.status} ${r.text.slice(0, 160)}`);
        }
        const edge = await edgeGet(a, host, `/~api/during${i % 3}`).catch(() => 0);
        if (edge === 0) await sleep(300); // gone? let its exit be seen
        if (exitedA) break;
        assertEquals(edge, 200, "edge from its snapshot");
      }
      assert(!exitedA, `instance exited during the outage:\n${a.out.slice(-12).join("\n")}`);
      console.log(
        `pgbouncer_outage_test: ${answered503} answers 503 during the outage, ${seen.length} other`,
      );
      assertEquals(seen, [], "every management answer during the outage is 503 unavailable");

      await cluster.start();
      let put = await owner.req(a, "PUT", `/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      for (let i = 0; i < 60 && put.status !== 200; i++) {
        await sleep(500);
        put = await owner.req(a, "PUT", `/api/tenants/${slug}/api-config`, { cacheTTL: 99 });
      }
      assertEquals(put.status, 200, put.text);
      const b = await late;
      instances.push(b);
      assert(
        b.out.some((l) => /database/i.test(l) && /retry|wait/i.test(l)),
        `the late instance logged why it waited:\n${b.out.slice(0, 20).join("\n")}`,
      );
      assertEquals((await owner.req(b, "GET", `/api/tenants/${slug}`)).status, 200);
      assert(!exitedA, "instance A still up after recovery");
      const uncaught = [...a.out, ...b.out].filter((l) => /uncaught/i.test(l));
      assertEquals(uncaught, []);
    } finally {
      await cluster.start().catch(() => {}); // a late instance waiting for it can then finish
      await Promise.all(instances.map(stop));
      const b = await late?.catch(() => null);
      if (b && !instances.includes(b)) await stop(b);
      bouncer?.child.kill();
      await bouncer?.child.status;
      await upstream.shutdown();
      await world.close();
      await cluster.close();
    }
  },
});
