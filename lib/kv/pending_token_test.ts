import { assertEquals } from "../../tests/assert.ts";
import { replacePendingToken } from "./pending_token.ts";

Deno.test("of several tokens issued at once for one user, exactly one stays valid", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const issue = (hash: string) =>
      replacePendingToken(kv, {
        entryKey: (h) => ["entry", h],
        pointerKey: ["pointer", "user-1"],
        hash,
        entry: { userId: "user-1" },
        ttlMs: 60_000,
      });
    await Promise.all(["a", "b", "c", "d", "e"].map(issue));
    const entries = [];
    for await (const e of kv.list({ prefix: ["entry"] })) entries.push(e.key[1]);
    const pointer = (await kv.get<string>(["pointer", "user-1"])).value;
    assertEquals(entries, [pointer], "the one entry left is the one the pointer names");
  } finally {
    kv.close();
  }
});
