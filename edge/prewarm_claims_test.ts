import { assertEquals } from "../tests/assert.ts";
import { CLAIM_BATCH, claimAll } from "./prewarm_claims.ts";

const keys = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ["claim", from + i] as Deno.KvKey);

/** A KV whose atomic operations are counted. */
function counted(kv: Deno.Kv) {
  const n = { atomics: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    n.atomics++;
    return atomic();
  };
  return n;
}

Deno.test("prewarm claims: one atomic operation per 50 claims", async () => {
  assertEquals(CLAIM_BATCH, 50);
  await using kv = await Deno.openKv(":memory:");
  const n = counted(kv);
  const won = await claimAll(kv, keys(0, 101), "a", 60_000);
  assertEquals(won.every(Boolean), true);
  assertEquals(n.atomics, 3);
});

Deno.test("prewarm claims: a loser races again only for the claims still open", async () => {
  await using kv = await Deno.openKv(":memory:");
  assertEquals((await claimAll(kv, keys(0, 30), "a", 60_000)).every(Boolean), true);
  const n = counted(kv);
  const won = await claimAll(kv, keys(0, 40), "b", 60_000);
  assertEquals(won.map((w, i) => w === i >= 30), won.map(() => true), "b wins 30–39 only");
  assertEquals(n.atomics, 1, "its open claims only (read first)");
  for (const [i, e] of (await kv.getMany(keys(25, 35))).entries()) {
    assertEquals(e.value, 25 + i < 30 ? "a" : "b");
  }
});

Deno.test("prewarm claims: a late instance finding every claim taken writes nothing", async () => {
  await using kv = await Deno.openKv(":memory:");
  assertEquals((await claimAll(kv, keys(0, 41), "a", 60_000)).every(Boolean), true);
  const n = counted(kv);
  assertEquals((await claimAll(kv, keys(0, 41), "b", 60_000)).some(Boolean), false);
  assertEquals(n.atomics, 0);
});

Deno.test("prewarm claims: instances racing at once win each claim exactly once", async () => {
  await using kv = await Deno.openKv(":memory:");
  const all = keys(0, 100);
  const results = await Promise.all(
    ["a", "b", "c", "d"].map((me, k) => claimAll(kv, k % 2 ? [...all].reverse() : all, me, 60_000)),
  );
  const winners = all.map((_, i) =>
    results.filter((r, k) => r[k % 2 ? all.length - 1 - i : i]).length
  );
  assertEquals(winners, all.map(() => 1));
});
