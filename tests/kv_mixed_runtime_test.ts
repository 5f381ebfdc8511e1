/**
 * A rolling upgrade's halfway point: instances on Deno 2.9 (`deno`) and on Deno 2.5
 * (`deno25`) over one KV file and one PostgreSQL. Each reads what the other wrote: a tenant
 * projected by one is served by both, a cache bump and a new tenant made through the other
 * reach both, a session signed in on one is valid on the other, and a rate limit counted by
 * both stays exact. (Before, 2.5 could not
 * decode 2.9's V8 serialization, deleted the value, and the tenant read absent on every
 * instance.) Skips without TEST_DATABASE_URL or without both binaries on PATH.
 */
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
const RUNTIMES = ["deno", "deno25"];
const missing = RUNTIMES.filter((bin) => {
  try {
    return !new Deno.Command(bin, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return true;
  }
});
const SKIP = !BASE ? "TEST_DATABASE_URL is not set" : missing.length ? `no ${missing}` : null;
if (SKIP) console.log(`kv_mixed_runtime_test: skipped: ${SKIP}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: "Deno 2.9 and 2.5 instances on one KV file read each other's tenants and sessions",
  ignore: SKIP !== null,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_faults_mixed");
    let n = 0;
    const up = startUpstream();
    up.route("/item", () => Response.json({ n: ++n }));
    const instances: Instance[] = [];
    try {
      for (const deno of RUNTIMES) instances.push(await startInstance(world.env, { deno }));
      const [newer, older] = instances;
      const owner = await signUp(newer);
      const first = await createTenantOn(newer, owner, "mixed", up.url);
      // Both serve it, again and again past the edge's memo of a snapshot.
      const seen: string[] = [];
      for (let round = 0; round < 4; round++) {
        for (const [i, inst] of instances.entries()) {
          const r = await edgeFetch(inst, first.host, "/~api/item");
          seen.push(`${RUNTIMES[i]}:${r.status}`);
        }
        await sleep(1_200);
      }
      console.log(`kv_mixed_runtime_test: ${seen.join(" ")}`);
      assertEquals(seen.filter((s) => !s.endsWith(":200")), [], "every read answered 200");

      // The older runtime reads the session the newer one wrote, and writes through it.
      const list = await owner.req(older, "GET", "/api/tenants");
      assertEquals(list.status, 200, `session from 2.9 on 2.5: ${list.text}`);
      const before = (await edgeFetch(newer, first.host, "/~api/item")).body;
      const bump = await owner.req(older, "POST", `/api/tenants/${first.slug}/refresh-cache`, {
        type: "api",
      });
      assertEquals(bump.status, 200, bump.text);
      const second = await createTenantOn(older, await signUp(older), "mixed2", up.url);

      const t0 = performance.now();
      let ok = false;
      let state = "";
      while (!ok && performance.now() - t0 < 8_000) {
        const a = await edgeFetch(newer, second.host, "/~api/item");
        const b = await edgeFetch(older, second.host, "/~api/item");
        const c = await edgeFetch(newer, first.host, "/~api/item");
        const d = await edgeFetch(older, first.host, "/~api/item");
        state = `new tenant ${a.status}/${b.status}, bumped ${c.status} ${c.body}/${d.status}`;
        ok = a.status === 200 && b.status === 200 && c.status === 200 && d.status === 200 &&
          c.body !== before;
        if (!ok) await sleep(250);
      }
      console.log(
        `kv_mixed_runtime_test: after ${Math.round(performance.now() - t0)} ms: ${state}`,
      );
      assert(ok, `what the older runtime wrote reaches both: ${state}`);

      // One rate-limit window counted by both: 100 events, 50 through each, admit exactly 60.
      const event = (inst: Instance) =>
        fetch(`http://127.0.0.1:${inst.port}/api/ai-experiments/events`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            tenantSlug: first.slug,
            experimentId: 1,
            variantId: 1,
            variantKey: "control",
            eventName: "mixed_fleet",
          }),
        }).then(async (r) => (await r.body?.cancel(), r.status));
      while (Date.now() % 60_000 > 55_000) await sleep(250); // all 100 in one minute window
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) statuses.push(await event(newer), await event(older));
      const limited = statuses.filter((st) => st === 429).length;
      console.log(`kv_mixed_runtime_test: ${100 - limited} of 100 events past the limit of 60`);
      assertEquals(limited, 40, `statuses: ${[...new Set(statuses)]}`);

      const lost = instances.flatMap((i) => i.out).filter((l) => l.includes("cannot decode"));
      assertEquals(lost, [], "nothing was treated as undecodable");
    } finally {
      await Promise.all(instances.map(stop));
      await up.close();
      await world.close();
    }
  },
});
