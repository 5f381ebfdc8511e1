/**
 * Edge first (cold start): main.ts serves tenant hosts from KV before the database
 * side has started. An instance started while PostgreSQL cannot be reached answers a tenant's
 * visitors at once, answers the management app 503 with Retry-After while it waits, and the
 * management app once the database answers; nothing exits.
 */
import { assert, assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import {
  Agent,
  createTenantOn,
  databaseGate,
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("edge_first_start_test: skipped: TEST_DATABASE_URL is not set");

Deno.test({
  name:
    "started while the database is down: tenants served from KV at once, management 503 then 200",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_edgefirst");
    const up = startUpstream();
    up.route("/item", () => Response.json({ ok: true }));
    const gate = databaseGate(world.url);
    const instances: Instance[] = [];
    try {
      // A first instance creates the tenant: KV then holds its snapshot and the marker.
      const a = await startInstance(world.env);
      instances.push(a);
      const owner = await signUp(a);
      const { host } = await createTenantOn(a, owner, "ef", up.url);
      assertEquals((await edgeFetch(a, host, "/~api/item")).status, 200);
      await stop(a);
      instances.pop();

      // The second starts with the database unreachable (the gate drops every connection).
      // As on Deno Deploy: schema checked over the app's own connections (each bounded by
      // DB_REQUEST_TIMEOUT_MS), not migrated at start.
      const b = await startInstance({
        ...world.env,
        DATABASE_URL: gate.url,
        MIGRATE_ON_START: "false",
        DB_REQUEST_TIMEOUT_MS: "2000",
      }, {
        untilReady: false,
      });
      instances.push(b);
      const visitor = await edgeFetch(b, host, "/~api/item?fresh=1");
      assertEquals(visitor.status, 200, `edge from KV with the database down: ${visitor.head}`);
      const agent = new Agent();
      const login = await agent.req(b, "POST", "/api/auth/login", {
        email: owner.email,
        password: "correct horse battery",
      });
      assertEquals(login.status, 503, login.text);
      assertEquals(login.body?.error?.code, "unavailable");
      const page = await fetch(`http://127.0.0.1:${b.port}/login`);
      assertEquals(page.status, 503);
      assertEquals(page.headers.get("retry-after"), "5");
      await page.body?.cancel();
      assert(
        b.out.some((l) => l.includes("database unreachable at start; waiting to retry")),
        b.out.join("\n"),
      );

      // The database answers: the management app comes up on the next retry (1 s, 2 s, 4 s…).
      gate.open();
      let again = await agent.req(b, "POST", "/api/auth/login", {
        email: owner.email,
        password: "correct horse battery",
      });
      for (let i = 0; i < 40 && again.status === 503; i++) {
        await new Promise((r) => setTimeout(r, 500));
        again = await agent.req(b, "POST", "/api/auth/login", {
          email: owner.email,
          password: "correct horse battery",
        });
      }
      assertEquals(again.status, 200, again.text);
      assertEquals((await edgeFetch(b, host, "/~api/item?fresh=2")).status, 200);
      assertEquals(b.out.filter((l) => /uncaught/i.test(l)), []);
    } finally {
      await Promise.all(instances.map(stop));
      gate.close();
      await up.close();
      await world.close();
    }
  },
});
