/**
 * An older copy of the KV file restored under running instances (a KV backup put back): the
 * copy carries this installation's marker, so the marker alone says all is well. Its contents
 * must still be compared with the database and repaired within 5 s: a tenant created after
 * the copy answers on every instance, and a cache bump made after it stays in force (the edge
 * never serves the pre-bump copy again). Two real processes of main.ts on one KV file and
 * PostgreSQL. Skips without TEST_DATABASE_URL.
 */
import { backupKv, restoreKv } from "./kv_backup.ts";
import { assert, assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import {
  createTenantOn,
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("kv_restore_test: skipped: TEST_DATABASE_URL is not set");

Deno.test({
  name: "an older KV copy restored under running instances is repaired within 5 s",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_faults_kvrestore");
    let n = 0;
    const up = startUpstream();
    up.route("/item", () => Response.json({ n: ++n }));
    const instances: Instance[] = [];
    try {
      instances.push(await startInstance(world.env), await startInstance(world.env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const bumped = await createTenantOn(a, owner, "kvr", up.url);
      for (const inst of instances) {
        assertEquals((await edgeFetch(inst, bumped.host, "/~api/item")).status, 200);
      }
      const copy = `${world.dir}/kv-backup.sqlite3`;
      backupKv(world.env.KV_PATH, copy);

      // After the copy: a cache bump (a purge) and a new tenant.
      const r = await owner.req(a, "POST", `/api/tenants/${bumped.slug}/refresh-cache`, {
        type: "api",
      });
      assertEquals(r.status, 200, r.text);
      const fresh = await createTenantOn(a, await signUp(a), "kvnew", up.url); // one per plan
      await new Promise((r) => setTimeout(r, 500));
      const afterBump = new Map<Instance, string>();
      for (const inst of instances) {
        const res = await edgeFetch(inst, bumped.host, "/~api/item");
        assertEquals(res.status, 200);
        afterBump.set(inst, res.body);
        assertEquals((await edgeFetch(inst, fresh.host, "/~api/item")).status, 200);
      }

      await restoreKv(copy, world.env.KV_PATH);
      const t0 = performance.now();
      const ok = async () => {
        for (const inst of instances) {
          if ((await edgeFetch(inst, fresh.host, "/~api/item")).status !== 200) return false;
          const res = await edgeFetch(inst, bumped.host, "/~api/item");
          if (res.status !== 200 || res.body !== afterBump.get(inst)) return false;
        }
        return true;
      };
      // Past the edge's own memo of a snapshot (a few seconds): what it serves comes from KV.
      await new Promise((r) => setTimeout(r, 1_500));
      let repaired = false;
      while (!repaired && performance.now() - t0 < 10_000) {
        repaired = await ok();
        if (!repaired) await new Promise((r) => setTimeout(r, 200));
      }
      const took = Math.round(performance.now() - t0);
      const states = await Promise.all(instances.map(async (inst) => ({
        fresh: (await edgeFetch(inst, fresh.host, "/~api/item")).status,
        bumped: (await edgeFetch(inst, bumped.host, "/~api/item")).body,
        afterBump: afterBump.get(inst),
      })));
      console.log(`kv_restore_test: repaired ${repaired} after ${took} ms`, JSON.stringify(states));
      assert(repaired, `not repaired 10 s after the restore: ${JSON.stringify(states)}`);
      // Let the two settle on one file again, then hold for another 3 s: it stays repaired.
      await new Promise((r) => setTimeout(r, 3_000));
      assert(await ok(), "still repaired");
      assert(took < 5_000, `repaired ${took} ms after the restore`);
      assert(
        [a, b].every((i) => i.out.some((l) => l.includes("KV file was deleted or replaced"))),
        "both reopened the file",
      );
    } finally {
      await Promise.all(instances.map(stop));
      await up.close();
      await world.close();
    }
  },
});
