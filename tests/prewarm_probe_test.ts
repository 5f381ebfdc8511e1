/**
 * The prewarm's order against a CMS lagging 1.5 s (tests/fakes/publishing_cms.ts behind a proxy
 * that holds each answer 100 ms and counts those in flight): the claimer probes with the
 * smallest purged answer (the published entry's own) while the CDN lags, and once it is
 * fresh asks for the rest at once, not 8 at a time.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, PROXY_DOMAIN, serveOnLoopback, signUp } from "./harness.ts";
import { PUB_SPACE, startPublishingCms } from "./fakes/publishing_cms.ts";

const ENTRIES = "/~api/environments/master/entries";
const LISTS = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

dbTest(
  "prewarm: the smallest answer probes the lagging CMS; the rest are asked at once",
  async (app) => {
    await using cms = startPublishingCms();
    for (let i = 0; i < 15; i++) cms.publish(`e${i}`, "post", `Entry ${i} ${"x".repeat(200)}`);
    let inFlight = 0;
    let most = 0;
    const proxy = serveOnLoopback(async (req) => {
      const u = new URL(req.url);
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        await sleep(100);
        const r = await fetch(`${cms.url}${u.pathname}${u.search}`, { headers: req.headers });
        return new Response(await r.arrayBuffer(), { status: r.status, headers: r.headers });
      } finally {
        inFlight--;
      }
    });
    try {
      const owner = await signUp(app);
      const slug = await createTenant(owner, {
        cms: "contentful",
        spaceId: PUB_SPACE,
        apiOrigin: `${proxy.url}/spaces/${PUB_SPACE}`,
        token: "tok",
      });
      const hook = await owner.post(`/api/tenants/${slug}/cache-refresh-webhooks`, {
        provider: "contentful",
        scope: "entities",
      });
      assertEquals(hook.status, 201, hook.text);
      const visitor = new Client(app);
      const get = (p: string) => visitor.get(`http://${slug}.${PROXY_DOMAIN}${p}`);
      // The entry first: the least recently used of the answers the publish purges.
      assertEquals((await get(`${ENTRIES}/e3`)).status, 200);
      for (let v = 0; v < LISTS; v++) {
        assertEquals((await get(`${ENTRIES}?content_type=post&v=${v}`)).status, 200);
      }
      most = 0;
      const before = cms.upstream.seen.length;
      cms.lagMs = 1_500;
      const d = cms.publish("e3", "post", "Entry 3, again");
      app.clock.advance(1);
      const r = await visitor.post(new URL(hook.body.url).pathname, JSON.stringify(d.body), {
        "x-contentful-topic": d.topic,
      });
      assertEquals(r.status, 200, r.text);
      app.clock.advance(1);
      const deadline = performance.now() + 8_000;
      while (cms.upstream.seen.length - before < LISTS + 2 && performance.now() < deadline) {
        await sleep(50);
      }
      await sleep(300);
      const asked = cms.upstream.seen.slice(before).map((s) => s.path.replace(/.*\/entries/, ""));
      const probes = asked.indexOf("");
      assert(probes >= 2, `the CDN lagged: probed more than once (${asked.join(" ")})`);
      assertEquals(asked.slice(0, probes), Array(probes).fill("/e3"), "the probe: the entry");
      assertEquals(asked.slice(probes).length, LISTS, "each list once");
      assertEquals(most, LISTS, "the lists asked at once");
      assertEquals((await get(`${ENTRIES}/e3`)).headers.get("x-cachely-cache"), "HIT");
    } finally {
      await proxy.close();
    }
  },
);
