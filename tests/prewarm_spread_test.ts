/**
 * A publish on N real processes whose CMS lags 800 ms: the claimer probes alone, and once the
 * CMS is fresh it deals the other purged answers out among the instances waiting for its
 * copies (edge/prewarm_share.ts): more than one instance refetches, each answer still once,
 * and every instance ends with every answer, a HIT of the new revision.
 * Skips (saying why) without TEST_DATABASE_URL.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFetch, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { startPublishingCms } from "./fakes/publishing_cms.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("prewarm_spread_test: skipped: TEST_DATABASE_URL is not set");

const ENTRIES = "/~api/environments/master/entries";
const N = 3;
const LISTS = 12;

async function seen(inst: Instance, host: string, path: string) {
  const r = await edgeFetch(inst, host, path);
  const cache = r.head.match(/^x-cachely-cache: *(\S+)/im)?.[1] ?? null;
  const body = JSON.parse(r.body);
  const items: { sys: { id: string; revision: number } }[] = body.items ?? [body];
  return { cache, alpha: items.find((i) => i.sys.id === "alpha")?.sys.revision };
}

Deno.test({
  name: "a publish on N instances: the refetches dealt out once the CMS is fresh, each once",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "pw_spread");
    const cms = startPublishingCms();
    const instances: Instance[] = [];
    try {
      const env = { ...world.env, EDGE_SNAPSHOT_TTL_MS: "200", EDGE_SNAPSHOT_MAX_STALE_MS: "1000" };
      instances.push(await startInstance(env)); // migrates first
      instances.push(...await Promise.all(Array.from({ length: N - 1 }, () => startInstance(env))));
      const [a] = instances;
      const owner = await signUp(a);
      const slug = `pws-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(a, "POST", "/api/tenants", {
        slug,
        cms: "contentful",
        spaceId: "pubspace1",
        apiOrigin: cms.apiOrigin,
        token: "tok",
      });
      assertEquals(created.status, 201, created.text);
      const w = await owner.req(a, "POST", `/api/tenants/${slug}/cache-refresh-webhooks`, {
        provider: "contentful",
        scope: "entities",
      });
      assertEquals(w.status, 201, w.text);
      const host = `${slug}.localhost:8000`;
      cms.publish("alpha", "post", "Alpha");
      cms.publish("gamma", "post", "Gamma");
      const paths = [`${ENTRIES}/alpha`];
      for (let v = 0; v < LISTS; v++) paths.push(`${ENTRIES}?content_type=post&v=${v}`);
      for (const inst of instances) {
        for (const p of paths) await seen(inst, host, p);
        for (const p of paths) assertEquals((await seen(inst, host, p)).cache, "HIT", p);
      }
      const lists0 = cms.count("/entries");

      cms.lagMs = 800; // the instances have registered for copies before the CMS is fresh
      const d = cms.publish("alpha", "post", "Alpha 2");
      const r = await fetch(`http://127.0.0.1:${a.port}${new URL(w.body.url).pathname}`, {
        method: "POST",
        headers: { "x-contentful-topic": d.topic, "content-type": "application/json" },
        body: JSON.stringify(d.body),
      });
      assertEquals(r.status, 200, await r.text());
      const lines = (i: Instance) => i.out.filter((l) => l.includes('"msg":"prewarmed"'));
      for (let t = 0; t < 300 && !instances.every((i) => lines(i).length > 0); t++) {
        await new Promise((res) => setTimeout(res, 100));
      }
      const said = instances.flatMap((i) => i.out.filter((l) => l.includes("prewarm")));
      const runs = instances.map((i) => lines(i).map((l) => JSON.parse(l))[0]);
      assert(runs.every((j) => j !== undefined), said.join("\n"));
      const fetched = runs.map((j) => j.fetched as number);
      assertEquals(fetched.reduce((s, n) => s + n, 0), LISTS + 1, said.join("\n"));
      assert(
        fetched.filter((n) => n > 0).length >= 2,
        `refetched by one instance: ${said.join("\n")}`,
      );
      assertEquals(runs.map((j) => j.missed), instances.map(() => 0), said.join("\n"));
      assertEquals(cms.count("/entries") - lists0, LISTS, "each list asked once");
      for (const inst of instances) {
        for (const p of paths) {
          assertEquals(Object.values(await seen(inst, host, p)), ["HIT", 2], `:${inst.port} ${p}`);
        }
      }
    } finally {
      await Promise.all(instances.map(stop));
      await cms.close();
      await world.close();
    }
  },
});
