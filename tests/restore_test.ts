/**
 * The restore steps of docs/operations.md "Backups and restore", run for real:
 * a PostgreSQL dump is taken, the tenant changes twice and a second tenant is created
 * after it, then the database is restored from the dump with pg_restore, `deno task
 * migrate` and `deno task cli sync`. The restarted instance must serve the restored state:
 * the tenant created after the dump is gone from the edge (no ghost), KV holds the dump's
 * settings, and a change made after the restore reaches KV (before, KV kept the newer
 * generation and refused it). Real processes of main.ts; skips without TEST_DATABASE_URL.
 */
import { portableKv } from "../lib/kv/portable.ts";
import postgres from "postgres";
import { assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { edgeGet, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("restore_test: skipped: TEST_DATABASE_URL is not set");
const ROOT = new URL("..", import.meta.url).pathname;

async function sh(cmd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, {
    args,
    env,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${text}${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

async function apiVersion(kvPath: string, slug: string): Promise<number | undefined> {
  const kv = await Deno.openKv(kvPath);
  try {
    return (await readSnapshot(portableKv(kv), slug))?.versions.api;
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "restoring an older dump by the documented steps leaves no ghost and no stuck tenant",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_restore");
    const up = startUpstream();
    const dump = `${world.dir}/backup.dump`;
    const db = world.url.toString();
    const name = world.url.pathname.slice(1);
    let a: Instance | null = null;
    try {
      a = await startInstance(world.env);
      const owner = await signUp(a);
      const slug = `rs-${crypto.randomUUID().slice(0, 8)}`;
      const body = { cms: "generic", apiOrigin: up.url };
      assertEquals((await owner.req(a, "POST", "/api/tenants", { slug, ...body })).status, 201);
      await sh("pg_dump", ["--format=custom", "--file", dump, db]);

      // after the backup: two version bumps and a new tenant
      for (let i = 0; i < 2; i++) {
        const r = await owner.req(a, "POST", `/api/tenants/${slug}/refresh-cache`, { type: "api" });
        assertEquals(r.status, 200, r.text);
      }
      const later = await signUp(a);
      const ghost = `rs-${crypto.randomUUID().slice(0, 8)}`;
      assertEquals(
        (await later.req(a, "POST", "/api/tenants", { slug: ghost, ...body })).status,
        201,
      );
      assertEquals(await edgeGet(a, `${ghost}.localhost:8000`, "/~api/x"), 200);
      await stop(a);
      a = null;
      assertEquals(await apiVersion(world.env.KV_PATH, slug), 3);

      // the documented restore: an empty database, pg_restore, a new installation id,
      // migrate, cli sync
      const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.unsafe(`CREATE DATABASE ${name}`);
      await admin.end();
      await sh("pg_restore", ["--no-owner", "--dbname", db, dump]);
      await sh("psql", [db, "-c", "UPDATE installation SET id = gen_random_uuid()::text"]);
      await sh(Deno.execPath(), ["task", "migrate"], world.env);
      const synced = await sh(Deno.execPath(), ["task", "cli", "sync"], world.env);
      console.log(`restore_test: cli sync: ${synced.trim().split("\n").at(-1)}`);

      a = await startInstance(world.env);
      assertEquals(await edgeGet(a, `${ghost}.localhost:8000`, "/~api/x"), 404, "no ghost tenant");
      assertEquals(await edgeGet(a, `${slug}.localhost:8000`, "/~api/x"), 200);
      assertEquals(await apiVersion(world.env.KV_PATH, slug), 1, "KV follows the dump");
      const r = await owner.req(a, "POST", `/api/tenants/${slug}/refresh-cache`, { type: "api" });
      assertEquals(r.status, 200, r.text);
      assertEquals(await apiVersion(world.env.KV_PATH, slug), 2, "a later change reaches KV");
    } finally {
      if (a) await stop(a);
      await up.close();
      await world.close();
    }
  },
});
