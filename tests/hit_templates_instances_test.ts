/**
 * Two edges in one process (two app instances, each with its own edge cache) keep their hit
 * templates apart: one clearing its cache or filling its template bound leaves the other's
 * templates, and the bytes charged for them, alone (edge/cache/hit_templates.ts).
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import type { CachedObject } from "../edge/cache/store.ts";

type Fixture = Awaited<ReturnType<typeof edgeFixture>>;

/** Asks for `path` three times: the second hit builds the object's template. */
async function hot(fx: Fixture, path: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const r = await fx.request(path);
    assertEquals(r.status, 200);
    await r.arrayBuffer();
  }
}

/** The templates the edge's cached objects hold (compared by identity). */
function templatesOf(fx: Fixture): unknown[] {
  const held: unknown[] = [];
  const holders = (o: CachedObject) => [o, ...Object.values(o.codings ?? {})];
  for (const obj of fx.edge.cache.lru.recent()) {
    for (const h of holders(obj)) if (h && typeof h === "object" && h.sent) held.push(h.sent);
  }
  return held;
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

async function twoEdges() {
  const up = startUpstream();
  const a = await edgeFixture(up.url);
  const b = await edgeFixture(up.url, { env: { EDGE_CACHE_MAX_BYTES: String(256 * 1024 ** 2) } });
  return {
    a,
    b,
    async [Symbol.asyncDispose]() {
      a.close();
      b.close();
      await up.close();
    },
  };
}

Deno.test("A's template survives B's clear", async () => {
  await using t = await twoEdges();
  await hot(t.a, "/~api/a");
  await hot(t.b, "/~api/b");
  const before = templatesOf(t.a);
  assertEquals(before.length, 1);
  assertEquals(templatesOf(t.b).length, 1);
  t.b.edge.cache.clear();
  assert(same(templatesOf(t.a), before), "A's template is still held");
  const again = await t.a.request("/~api/a");
  assertEquals(again.headers.get("x-cachely-cache"), "HIT");
  await again.arrayBuffer();
  assert(same(templatesOf(t.a), before), "and still served");
});

Deno.test("A's template survives B filling its bound", async () => {
  await using t = await twoEdges();
  await hot(t.a, "/~api/a");
  const before = templatesOf(t.a);
  assertEquals(before.length, 1);
  // 600 KB bodies: 60 templates are past the 32 MiB one edge keeps for them
  for (let i = 0; i < 60; i++) await hot(t.b, `/~api/big?bytes=600000&i=${i}`);
  const kept = templatesOf(t.b).length;
  assert(kept > 40 && kept < 60, `B kept ${kept} templates, bounded`);
  assert(same(templatesOf(t.a), before), "A's template is still held");
});
