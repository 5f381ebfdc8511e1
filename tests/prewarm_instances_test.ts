/**
 * A publish on N real processes (`deno run -A main.ts`, one PostgreSQL database, one KV
 * file): a Contentful webhook in "entities" scope delivered to one instance purges the
 * entry and its list on every instance; the prewarm asks the fake CMS once per purged answer
 * (not once per instance), and the first request after the publish is a HIT with the new
 * revision on each instance; an unrelated entry stays a HIT without an origin fetch. The
 * entry's copy rides in its KV head; the list, over 48 KiB, in chunks.
 * Skips (saying why) without TEST_DATABASE_URL.
 */
import { assertEquals } from "./assert.ts";
import { edgeFetch, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { startPublishingCms } from "./fakes/publishing_cms.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("prewarm_instances_test: skipped: TEST_DATABASE_URL is not set");

const ENTRIES = "/~api/environments/master/entries";
const N = 3;

/** The cache outcome and the revisions an edge answer shows (entry or list). */
async function seen(inst: Instance, host: string, path: string) {
  const r = await edgeFetch(inst, host, path);
  const cache = r.head.match(/^x-cachely-cache: *(\S+)/im)?.[1] ?? null;
  const body = JSON.parse(r.body);
  const revisions = body.items
    ? body.items.map((i: { sys: { id: string; revision: number } }) =>
      `${i.sys.id}@${i.sys.revision}`
    )
      .join(",")
    : `${body.sys.id}@${body.sys.revision}`;
  return { status: r.status, cache, revisions };
}

Deno.test({
  name: "a publish on N instances: purged everywhere, prewarmed once, a HIT on each instance",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes settle after stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_pw");
    const cms = startPublishingCms();
    const instances: Instance[] = [];
    try {
      const env = { ...world.env, EDGE_SNAPSHOT_TTL_MS: "200", EDGE_SNAPSHOT_MAX_STALE_MS: "1000" };
      instances.push(await startInstance(env)); // migrates first
      instances.push(...await Promise.all(Array.from({ length: N - 1 }, () => startInstance(env))));
      const [a] = instances;
      const owner = await signUp(a);
      const slug = `pw-${crypto.randomUUID().slice(0, 8)}`;
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
      cms.publish("beta", "page", "Beta");
      cms.publish("big", "post", "B".repeat(70_000)); // the post list is shared in chunks
      const paths = [`${ENTRIES}/alpha`, `${ENTRIES}?content_type=post`, `${ENTRIES}/beta`];
      // Each instance holds each answer in memory (the first from the origin, or from the
      // Web Cache tier, which processes on one machine share).
      for (const inst of instances) {
        for (const p of paths) await seen(inst, host, p);
        for (const p of paths) assertEquals((await seen(inst, host, p)).cache, "HIT", p);
      }
      const before = paths.map((p) =>
        cms.count(p.slice("/~api/environments/master".length).split("?")[0])
      );

      const d = cms.publish("alpha", "post", "Alpha 2");
      const r = await fetch(`http://127.0.0.1:${a.port}${new URL(w.body.url).pathname}`, {
        method: "POST",
        headers: { "x-contentful-topic": d.topic, "content-type": "application/json" },
        body: JSON.stringify(d.body),
      });
      assertEquals(r.status, 200, await r.text());
      // The purge reaches every instance (change feed, 100 ms polls); each logs its prewarm.
      const prewarmed = (i: Instance) => i.out.some((l) => l.includes('"msg":"prewarmed"'));
      for (let t = 0; t < 300 && !instances.every(prewarmed); t++) {
        await new Promise((res) => setTimeout(res, 100));
      }
      const said = instances.flatMap((i) => i.out.filter((l) => l.includes("prewarm")));
      assertEquals(instances.map(prewarmed), instances.map(() => true), said.join("\n"));

      for (const inst of instances) {
        const alpha = await seen(inst, host, paths[0]);
        assertEquals([alpha.cache, alpha.revisions], ["HIT", "alpha@2"], `:${inst.port} entry`);
        const list = await seen(inst, host, paths[1]);
        assertEquals([list.cache, list.revisions], ["HIT", "alpha@2,big@1"], `:${inst.port} list`);
        const beta = await seen(inst, host, paths[2]);
        assertEquals([beta.cache, beta.revisions], ["HIT", "beta@1"], `:${inst.port} unrelated`);
      }
      const after = paths.map((p) =>
        cms.count(p.slice("/~api/environments/master".length).split("?")[0])
      );
      assertEquals(
        after.map((n, i) => n - before[i]),
        [1, 1, 0],
        "origin fetches after the publish: once per purged answer, not once per instance",
      );
    } finally {
      await Promise.all(instances.map(stop));
      await cms.close();
      await world.close();
    }
  },
});
