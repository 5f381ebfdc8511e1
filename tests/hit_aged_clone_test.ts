/**
 * Hits of an object with Age > 0 clone the template's aged clone, made once per second of age
 * (edge/respond.ts cloneAged), instead of setting Age on every hit's clone.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import type { HitTemplate } from "../edge/cache/hit_templates.ts";

Deno.test("hits in one second of age share one aged clone; the next second makes another", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url);
  try {
    const get = async () => {
      const r = await fx.request("/~api/a");
      const body = await r.text();
      return { age: r.headers.get("age"), cache: r.headers.get("x-cachely-cache"), body };
    };
    for (let i = 0; i < 3; i++) await get(); // the third is a template's clone
    // the object's own slot, or its identity view's once it has encoded variants
    const obj = [...fx.edge.cache.lru.recent()][0];
    const t = (obj.sent ?? obj.codings?.identity?.sent) as HitTemplate;
    assert(t !== undefined, "templated");
    fx.clock.advance(5_000);
    const a = await get();
    const aged = t.aged;
    const b = await get();
    assertEquals([a.age, b.age, a.cache, b.cache], ["5", "5", "HIT", "HIT"]);
    assertEquals(a.body, b.body);
    assert(aged !== undefined && t.aged === aged, "one aged clone for the second");
    assertEquals(t.res.headers.get("age"), null, "the template itself carries no Age");
    fx.clock.advance(1_000);
    assertEquals((await get()).age, "6");
    assert(t.aged !== aged, "a new one for the next second");
    assertEquals(t.aged!.headers.get("age"), "6");
  } finally {
    fx.close();
    await up.close();
  }
});
