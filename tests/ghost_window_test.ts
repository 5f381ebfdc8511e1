/**
 * A tenant removed from a wiped database (docs/operations.md "Backups and restore", "What bounds
 * a removed tenant's window"): main.ts restarted on an empty database but the KV file of the old
 * one. KV carries the installation marker, so the edge serves from it at once, the removed tenant
 * with its upstream token included, until the control half's boot reconcile pass has written that
 * tenant's tombstone (the in-process listener drops its memo at once); `cachely ready` is logged
 * after that pass. This measures the window and holds it to that bound: on the embedded database
 * and, with TEST_DATABASE_URL, on PostgreSQL (the database dropped and created again).
 */
import { assert, assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import postgres from "postgres";
import { edgeFetch, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

const TOKEN = "upstream-token-of-the-removed-tenant";
const BASE = Deno.env.get("TEST_DATABASE_URL");

/**
 * Creates a tenant with an upstream token on an instance started with `first`, stops it, calls
 * `wipe`, starts one with `wiped` (the same KV) and sends edge requests for that tenant from the
 * moment it listens until one is 404. Asserts the bound; returns the figures.
 */
async function ghostWindow(
  first: Record<string, string>,
  wiped: Record<string, string>,
  wipe: () => Promise<void>,
) {
  const up = startUpstream();
  up.route(
    "/item",
    () => Response.json({ ok: true }, { headers: { "cache-control": "no-store" } }),
  );
  let inst: Instance | null = null;
  try {
    inst = await startInstance(first);
    const owner = await signUp(inst);
    const slug = `ghost-${crypto.randomUUID().slice(0, 8)}`;
    const host = `${slug}.localhost:8000`;
    const created = await owner.req(inst, "POST", "/api/tenants", {
      slug,
      cms: "generic",
      apiOrigin: up.url,
    });
    assertEquals(created.status, 201, created.text);
    const token = await owner.req(inst, "PUT", `/api/tenants/${slug}/api-token`, { token: TOKEN });
    assertEquals(token.status, 200, token.text);
    const withToken = () => up.seen.filter((r) => r.headers.get("authorization")?.includes(TOKEN));
    for (let i = 0; i < 50; i++) {
      if ((await edgeFetch(inst, host, `/~api/item?n=${i}`)).status === 200 && withToken().length) {
        break;
      }
      await new Promise((r) => setTimeout(r, 100)); // the snapshot reaches KV
    }
    assert(withToken().length > 0, "the tenant's token reaches its upstream");
    await stop(inst);
    inst = null;

    await wipe();
    inst = await startInstance(wiped, { untilReady: false });
    const listening = performance.now();
    const before = withToken().length;
    let lastServed = -1;
    let firstGone = -1;
    let ready = -1;
    const statuses = new Set<number>();
    // Until the first 404; the cap only keeps a broken start from hanging the run (an embedded
    // database's first start took 75 s on a 2-core machine at load 30, past a 60 s cap).
    for (let i = 0; firstGone < 0 && performance.now() - listening < 300_000; i++) {
      const r = await edgeFetch(inst, host, `/~api/item?after=${i}`);
      const at = performance.now() - listening;
      statuses.add(r.status);
      if (ready < 0 && inst.out.some((l) => l.includes("cachely ready"))) ready = at;
      if (r.status === 200) lastServed = at;
      else if (r.status === 404) firstGone = at;
    }
    for (let i = 0; i < 600 && ready < 0; i++) {
      if (inst.out.some((l) => l.includes("cachely ready"))) ready = performance.now() - listening;
      else await new Promise((r) => setTimeout(r, 100));
    }
    const figures = {
      servedWithToken: withToken().length - before,
      lastServedMs: Math.round(lastServed),
      firstGoneMs: Math.round(firstGone),
      readyMs: Math.round(ready),
      statuses: [...statuses],
    };
    console.log(`ghost_window_test: ${JSON.stringify(figures)}`);
    assert(firstGone >= 0, `never removed: ${[...statuses]}`);
    // Bound: nothing is served for it once the pass has run; `cachely ready` follows the pass.
    assert(lastServed <= ready, `served at ${lastServed} ms, after ready (${ready} ms)`);
    assertEquals((await edgeFetch(inst, host, "/~api/item?final=1")).status, 404);
    return figures;
  } finally {
    if (inst) await stop(inst);
    await up.close();
  }
}

Deno.test({
  name: "a tenant removed from a wiped embedded database is served only until the boot pass",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const env = (data: string) => ({
      KV_PATH: `${dir}/kv.sqlite3`,
      DATA_DIR: `${dir}/${data}`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PROXY_DOMAIN: "localhost:8000",
      ALLOW_PRIVATE_UPSTREAMS: "true",
    });
    try {
      await ghostWindow(env("first"), env("wiped"), async () => {});
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "a tenant removed from a wiped PostgreSQL database is served only until the boot pass",
  ignore: !BASE,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "ghost_window");
    const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
    try {
      const name = world.url.pathname.slice(1);
      await ghostWindow(world.env, world.env, async () => {
        await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.unsafe(`CREATE DATABASE ${name}`);
      });
    } finally {
      await admin.end();
      await world.close();
    }
  },
});
