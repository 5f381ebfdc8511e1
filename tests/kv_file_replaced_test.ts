/**
 * A KV file deleted under running instances: before, the running
 * instance kept the deleted file while a restarted one opened a new, empty one, and the
 * two split silently (404 "Unknown tenant" on one, changes never crossing). Now the
 * restarted instance rebuilds the new file from the database before it serves, and the
 * running one notices the new inode, reopens the path and sees changes made through the
 * other. Two real processes of main.ts on PostgreSQL. Skips without TEST_DATABASE_URL.
 */
import { assertEquals } from "./assert.ts";
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
if (!BASE) console.log("kv_file_replaced_test: skipped: TEST_DATABASE_URL is not set");

Deno.test({
  name: "instances follow a KV file replaced under them instead of splitting",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_kvfile");
    let n = 0;
    const up = startUpstream();
    up.route("/item", () => Response.json({ n: ++n }));
    const instances: Instance[] = [];
    try {
      instances.push(await startInstance(world.env), await startInstance(world.env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const { slug, host } = await createTenantOn(a, owner, "kvf", up.url);
      const before = (await edgeFetch(a, host, "/~api/item")).body;
      // The file goes; B restarts on a new one (as a supervisor or a deploy would).
      for (const f of ["", "-wal", "-shm"]) {
        await Deno.remove(`${world.env.KV_PATH}${f}`).catch(() => {});
      }
      await stop(b);
      const b2 = await startInstance(world.env);
      instances[1] = b2;
      assertEquals((await edgeFetch(b2, host, "/~api/item")).status, 200, "rebuilt before serving");
      await new Promise((r) => setTimeout(r, 1_500)); // A's file check (every second)
      // sessions lived in the old file: sign in again
      const login = await owner.req(b2, "POST", "/api/auth/login", {
        email: owner.email,
        password: "correct horse battery",
      });
      assertEquals(login.status, 200, login.text);
      const r = await owner.req(b2, "POST", `/api/tenants/${slug}/refresh-cache`, { type: "api" });
      assertEquals(r.status, 200, r.text);
      await new Promise((r) => setTimeout(r, 500));
      const after = await edgeFetch(a, host, "/~api/item");
      assertEquals(after.status, 200);
      assertEquals(after.body !== before, true, "A sees the bump made through B");
      assertEquals(
        a.out.some((l) => l.includes("KV file was deleted or replaced")),
        true,
        "A said why it reopened",
      );
    } finally {
      await Promise.all(instances.map(stop));
      await up.close();
      await world.close();
    }
  },
});
