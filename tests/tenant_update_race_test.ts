/**
 * No lost updates in tenant settings: two real processes on one
 * PostgreSQL database and one KV file race PUTs of different keys at one tenant — the
 * provider's originUrl on one, its videoOrigin and the API TTL on the other — and every
 * round must keep all three. Before the fix a PUT wrote back the provider object it had
 * read before taking the row lock, undoing the other's change. Skips (saying why)
 * without TEST_DATABASE_URL.
 */
import postgres from "postgres";
import { assertEquals } from "./assert.ts";
import { type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("tenant_update_race_test: skipped: TEST_DATABASE_URL is not set");

const ROUNDS = 30;

Deno.test({
  name: "PUTs of different keys racing on two instances never undo each other",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_race");
    const env = world.env;
    const instances: Instance[] = [];
    const sql = postgres(world.url.toString(), { max: 1, onnotice: () => {} });
    try {
      instances.push(await startInstance(env));
      instances.push(await startInstance(env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const slug = `race-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(a, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        originUrl: "https://127.0.0.1:4431/r0",
      });
      assertEquals(created.status, 201, created.text);
      const path = `/api/tenants/${slug}`;
      const lost: string[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const want = {
          originUrl: `https://127.0.0.1:4431/r${i}`,
          videoOrigin: `https://127.0.0.1:4432/v${i}`,
          ttl: 100 + i,
        };
        const rs = await Promise.all([
          owner.req(a, "PUT", path, { originUrl: want.originUrl }),
          owner.req(b, "PUT", path, { videoOrigin: want.videoOrigin }),
          owner.req(b, "PUT", `${path}/api-config`, { cacheTTL: want.ttl }),
        ]);
        for (const r of rs) assertEquals(r.status, 200, r.text);
        const [row] = await sql`SELECT settings->'provider' AS p, cache_ttl FROM tenants
          WHERE slug = ${slug}`;
        const got = {
          originUrl: row.p?.originUrl,
          videoOrigin: row.p?.videoOrigin,
          ttl: row.cache_ttl,
        };
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          lost.push(`round ${i}: ${JSON.stringify(got)}`);
        }
      }
      console.log(`tenant_update_race_test: ${lost.length} of ${ROUNDS} rounds lost an update`);
      assertEquals(lost, []);
    } finally {
      await sql.end();
      await Promise.all(instances.map(stop));
      await world.close();
    }
  },
});
