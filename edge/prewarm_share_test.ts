import { assertEquals } from "../tests/assert.ts";
import { deal, type Dealt, join, shareOut } from "./prewarm_share.ts";
import { kvKeys } from "../lib/kv/keys.ts";

Deno.test("prewarm share: dealt in turn, in the claimer's order, to instances holding each", () => {
  const all = new Set(["a", "b", "c", "d", "e"]);
  assertEquals(deal(["a", "b", "c", "d", "e"], "me", new Map([["y", all], ["x", all]])), {
    a: "me",
    b: "x",
    c: "y",
    d: "me",
    e: "x",
  });
  // x holds only "a": the rest go to the claimer; nobody waiting, all the claimer's.
  assertEquals(deal(["a", "b", "c"], "me", new Map([["x", new Set(["c"])]])), {
    a: "me",
    b: "me",
    c: "x",
  });
  assertEquals(deal(["a", "b"], "me", new Map()), { a: "me", b: "me" });
});

Deno.test("prewarm share: claims handed over and dealt records left where the copies go", async () => {
  await using kv = await Deno.openKv(":memory:");
  const w = { tenantId: 3, purgeAt: 9 };
  for (const h of ["a", "b", "c", "d"]) {
    await kv.set(kvKeys.prewarmClaim(3, 9, h), "me");
  }
  await join(kv, w, "x", ["a", "b", "c", "d"], 60_000);
  const share = await shareOut(kv, w, "me", ["a", "b", "c", "d"], 60_000);
  assertEquals(share, { a: "me", b: "x", c: "me", d: "x" });
  const claims = await kv.getMany<string[]>(
    ["a", "b", "c", "d"].map((h) => kvKeys.prewarmClaim(3, 9, h)),
  );
  assertEquals(claims.map((e) => e.value), ["me", "x", "me", "x"]);
  const copies = await kv.getMany<Dealt[]>(["a", "b"].map((h) => kvKeys.prewarmCopy(3, 9, h)));
  assertEquals(copies.map((e) => e.value), [null, { to: "x" }]);
  // Another publish has nobody waiting: nothing dealt, nothing written.
  assertEquals(await shareOut(kv, { tenantId: 3, purgeAt: 10 }, "me", ["a", "b"], 60_000), {
    a: "me",
    b: "me",
  });
});
