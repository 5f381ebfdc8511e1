/**
 * `deno run -A --no-lock main.ts` on PostgreSQL starts and serves: nothing main.ts loads may
 * need a package only the lock file resolves. drizzle-orm's own postgres-js driver imports the
 * npm package `postgres`, an optional peer; once Cachely's driver became a local copy
 * (vendor/postgres), that import was resolved by the lock alone, and without it start-up
 * failed with "Could not find package 'postgres'" (lib/db/drizzle_postgres.ts).
 */
import { assertEquals } from "./assert.ts";
import { sharedWorld, signUp, startInstance, stop } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");

Deno.test({
  name: "main.ts starts on PostgreSQL without the lock file and writes through drizzle [postgres]",
  ignore: !BASE,
  sanitizeOps: false, // child process: its pipes and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_nolock");
    try {
      const inst = await startInstance(world.env, { lock: false });
      try {
        const owner = await signUp(inst);
        const me = await owner.req(inst, "GET", "/api/auth/me");
        assertEquals([me.status, me.body?.user?.email], [200, owner.email]);
      } finally {
        await stop(inst);
      }
    } finally {
      await world.close();
    }
  },
});
