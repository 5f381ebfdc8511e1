import { assertEquals } from "../tests/assert.ts";
import { cachedObject } from "./cache/store.ts";
import { CopyWriter, readCopy } from "./prewarm_copies.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import type { CopyHead } from "./prewarm_copies.ts";

/** A KV whose commits are counted. */
function counted(kv: Deno.Kv) {
  const n = { commits: 0, sets: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    n.commits++;
    return atomic();
  };
  const set = kv.set.bind(kv);
  kv.set = (...a: Parameters<Deno.Kv["set"]>) => {
    n.sets++;
    return set(...a);
  };
  return n;
}

const obj = (i: number, bytes = 100) =>
  cachedObject(
    200,
    [["content-type", "application/json"]],
    new Uint8Array(bytes).fill(i),
    1,
    60_000,
    false,
  );

Deno.test("prewarm copies: copies shared at once go in a few group commits, each readable", async () => {
  await using kv = await Deno.openKv(":memory:");
  const n = counted(kv);
  const writer = new CopyWriter(kv, 60_000);
  const where = (i: number) => ({ tenantId: 1, purgeAt: 5, hash: `h${i}` });
  await Promise.all(Array.from({ length: 40 }, (_, i) => writer.share(where(i), obj(i))));
  // The first commit alone (nothing else queued yet), then the 39 queued meanwhile together.
  assertEquals(n.commits <= 2, true, `${n.commits} commits`);
  assertEquals(n.sets, 0);
  for (const i of [0, 17, 39]) {
    const head = (await kv.get<CopyHead>(kvKeys.prewarmCopy(1, 5, `h${i}`))).value!;
    const back = await readCopy(kv, where(i), head);
    assertEquals(back!.body, new Uint8Array(100).fill(i));
  }
});

Deno.test("prewarm copies: a large answer's chunks are set first, its head in a group", async () => {
  await using kv = await Deno.openKv(":memory:");
  const writer = new CopyWriter(kv, 60_000);
  const where = { tenantId: 1, purgeAt: 5, hash: "big" };
  await writer.share(where, obj(7, 130 * 1024));
  const head = (await kv.get<CopyHead>(kvKeys.prewarmCopy(1, 5, "big"))).value!;
  assertEquals(head.chunks, 3);
  const back = await readCopy(kv, where, head);
  assertEquals(back!.body, new Uint8Array(130 * 1024).fill(7));
});
