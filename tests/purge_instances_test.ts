/**
 * Purge across two processes: a purge posted to instance A reaches instance B
 * within the snapshot freshness bound: the purged URL is fetched anew on B, another URL stays
 * a HIT there; likewise for a prefix and a tag. Needs PostgreSQL (TEST_DATABASE_URL).
 */
import { assertEquals } from "./assert.ts";
import { edgeFetch, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("purge_instances_test: skipped: TEST_DATABASE_URL is not set");

Deno.test({
  name: "a purge on one instance drops only what it names on another",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_purge");
    const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const path = new URL(req.url).pathname;
      const headers = path === "/tagged" ? { "cache-tag": "post-7" } : undefined;
      return Response.json({ path, at: performance.now() }, { headers });
    });
    const env = {
      ...world.env,
      EDGE_SNAPSHOT_TTL_MS: "200",
      EDGE_SNAPSHOT_MAX_STALE_MS: "1000",
      EDGE_PROJECTOR_INTERVAL_MS: "500",
    };
    const instances: Instance[] = [];
    try {
      instances.push(await startInstance(env), await startInstance(env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const slug = `pg-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(a, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: `http://127.0.0.1:${origin.addr.port}`,
      });
      assertEquals(created.status, 201, created.text);
      const host = `${slug}.localhost:8000`;
      const cacheOnB = async (path: string) => {
        const r = await edgeFetch(b, host, path);
        return /x-cachely-cache: (\w+)/i.exec(r.head)?.[1];
      };
      const paths = ["/~api/one", "/~api/two", "/~api/docs/a", "/~api/tagged"];
      for (const p of paths) await cacheOnB(p);
      for (const p of paths) assertEquals(await cacheOnB(p), "HIT", p);

      /** Posts the purge on A, then waits (bounded) until B stops serving `gone` from cache. */
      const purgeAndSee = async (body: unknown, gone: string) => {
        const r = await owner.req(a, "POST", `/api/tenants/${slug}/purge`, body);
        assertEquals(r.status, 200, r.text);
        const deadline = Date.now() + 5_000;
        let seen = await cacheOnB(gone);
        while (seen === "HIT" && Date.now() < deadline) {
          await new Promise((res) => setTimeout(res, 100));
          seen = await cacheOnB(gone);
        }
        assertEquals(seen, "MISS", `${gone} purged on B within the bound`);
        assertEquals(await cacheOnB("/~api/two"), "HIT", "another URL stays cached on B");
      };
      await purgeAndSee({ urls: [`http://${host}/~api/one`] }, "/~api/one");
      await purgeAndSee({ prefixes: ["/~api/docs/"] }, "/~api/docs/a");
      await purgeAndSee({ tags: ["post-7"] }, "/~api/tagged");
    } finally {
      for (const i of instances) await stop(i);
      await origin.shutdown();
      await world.close();
    }
  },
});
