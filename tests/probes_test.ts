/**
 * Health probes (lib/http/probes.ts) on real processes: `/livez` answers while the database
 * side has not started, `/readyz` answers 503 naming the database while it cannot be reached
 * and 200 once it answers, and a tenant's own `/livez` path is the tenant's, not a probe.
 */
import { assert, assertEquals } from "./assert.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";
import {
  databaseGate,
  edgeFetch,
  type Instance,
  sharedWorld,
  startInstance,
  stop,
} from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");

async function probe(inst: Instance, path: string) {
  const res = await fetch(`http://127.0.0.1:${inst.port}${path}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Polls `path` until it answers `status` (or `ms` pass): the last answer. */
async function until(inst: Instance, path: string, status: number, ms: number) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await probe(inst, path);
    if (r.status === status || Date.now() > end) return r;
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name:
    "embedded: /livez and /readyz answer 200 with the parts' timings; a tenant host is not probed",
  sanitizeOps: false, // a child process: its pipes' readers settle after stop()
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const inst = await startInstance({
      DATA_DIR: dir,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PROXY_DOMAIN: "localhost:8000",
    });
    try {
      // The plain line a person starting it reads, with the port the server got.
      assert(
        inst.out.includes(`Cachely is running: open http://localhost:${inst.port}/signup`),
        inst.out.join("\n"),
      );
      const live = await probe(inst, "/livez");
      assertEquals([live.status, live.body.ok], [200, true]);
      assertEquals(live.headers.get("cache-control"), "no-store");
      const ready = await probe(inst, "/readyz");
      assertEquals(ready.status, 200);
      assertEquals(ready.body.failing, []);
      assert(ready.body.database.ok && ready.body.kv.ok, JSON.stringify(ready.body));
      const head = await fetch(`http://127.0.0.1:${inst.port}/readyz`, { method: "HEAD" });
      assertEquals(head.status, 200);
      await head.body?.cancel();
      // On a tenant host the path belongs to the tenant's site: the edge answers it.
      const tenant = await edgeFetch(inst, "nobody-here.localhost:8000", "/livez");
      assertEquals(tenant.status, 404);
      assert(tenant.body.includes("unknown_tenant"), tenant.body);
    } finally {
      await stop(inst);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "PostgreSQL unreachable: /livez 200, /readyz 503 naming the database; 200 once it answers",
  ignore: !BASE,
  sanitizeOps: false, // child processes and the gate's relayed sockets
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_probes");
    // A first instance migrates the database; the probed one starts behind a closed gate.
    const first = await startInstance(world.env);
    await stop(first);
    const gate = databaseGate(world.url);
    let inst: Instance | null = null;
    try {
      inst = await startInstance(
        { ...world.env, DATABASE_URL: gate.url, MIGRATE_ON_START: "false" },
        { untilReady: false },
      );
      const live = await probe(inst, "/livez");
      assertEquals(live.status, 200);
      const down = await probe(inst, "/readyz");
      assertEquals(down.status, 503);
      assertEquals(down.body.failing, ["database"]);
      assert(down.body.kv.ok, JSON.stringify(down.body));
      assertEquals(down.headers.get("retry-after"), "5");
      gate.open();
      const up = await until(inst, "/readyz", 200, 20_000);
      assertEquals(up.status, 200, JSON.stringify(up.body));
      assertEquals(up.body.failing, []);
    } finally {
      if (inst) await stop(inst);
      gate.close();
      await world.close();
    }
  },
});
