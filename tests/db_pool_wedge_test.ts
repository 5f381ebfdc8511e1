/**
 * A database pool never wedges for good: a real process (`deno run -A main.ts`) reaches
 * PostgreSQL through a relay that first cuts its connections, then freezes (a stalled pooler)
 * while management requests keep arriving, so the pool reconnects and its statements miss
 * the deadline while their connections are still logging in. Once the relay thaws, the
 * database answers again and so must the instance, within seconds. (postgres.js 3.4.9 left a
 * connection whose first statement was cancelled during login out of its pool for good;
 * with all of them gone, every request waited for the deadline, forever.)
 */
import { assert, assertEquals } from "./assert.ts";
import { type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { tcpFreezer } from "./tcp_freezer.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("db_pool_wedge_test: skipped: TEST_DATABASE_URL is not set");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "a pool whose statements missed the deadline during login serves again after the stall",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_faults_wedge");
    const relay = tcpFreezer(world.url);
    let inst: Instance | null = null;
    try {
      inst = await startInstance({
        ...world.env,
        DATABASE_URL: relay.url,
        MIGRATION_DATABASE_URL: world.url.toString(),
        DB_REQUEST_TIMEOUT_MS: "2000",
      });
      const owner = await signUp(inst);
      const get = () =>
        owner.req(inst!, "GET", "/api/tenants").catch((e) => ({ status: 0, text: String(e) }));
      assertEquals((await get()).status, 200);

      relay.cut(); // the pool must reconnect ...
      relay.freeze(); // ... to a pooler that accepts and then says nothing
      const during: number[] = [];
      const until = performance.now() + 7_000;
      await Promise.all([...Array(8)].map(async () => {
        while (performance.now() < until) during.push((await get()).status);
      }));
      relay.thaw();

      const t0 = performance.now();
      let last = await get();
      while (last.status !== 200 && performance.now() - t0 < 20_000) {
        await sleep(200);
        last = await get();
      }
      const took = Math.round(performance.now() - t0);
      console.log(
        `db_pool_wedge_test: ${during.length} answers during the stall (${
          [...new Set(during)].join(", ")
        }); 200 again ${took} ms after the thaw`,
      );
      assertEquals(last.status, 200, `still ${last.status} 20 s after the thaw: ${last.text}`);
      assert(took < 5_000, `took ${took} ms to answer again after the thaw`);
      // And it stays healthy: a burst all answers.
      const burst = await Promise.all([...Array(12)].map(get));
      // The database was away, not the pool stuck: a pool that came back is kept, and the
      // requests it was serving are answered (replacing it then failed some of them).
      const replaced = inst.out.filter((l) => l.includes("database pool replaced"));
      assertEquals(replaced, [], "the pool was replaced although it answered again");
      const failed = burst.filter((r) => r.status !== 200);
      assertEquals(failed, [], `${failed.length} of 12 failed after recovering`);
    } finally {
      if (inst) await stop(inst);
      relay.close();
      await world.close();
    }
  },
});
