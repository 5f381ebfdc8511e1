import { assertEquals } from "../../tests/assert.ts";
import { hitRateLimit } from "./rate_limit.ts";
import { isTransientKvError, kvRetry } from "./retry.ts";

Deno.test("hitRateLimit() over two handles of one KV file admits exactly the limit, no error", async () => {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(`${dir}/kv.sqlite3`);
  const b = await Deno.openKv(`${dir}/kv.sqlite3`);
  try {
    const now = Date.now();
    const results = await Promise.allSettled(
      Array.from(
        { length: 100 },
        (_, i) => hitRateLimit(i % 2 ? a : b, "events", "203.0.113.9", 60, 60_000, now),
      ),
    );
    const failed = results.filter((r) => r.status === "rejected");
    assertEquals(failed.map((f) => String((f as PromiseRejectedResult).reason)), []);
    const allowed = results.filter((r) => r.status === "fulfilled" && r.value.allowed).length;
    assertEquals(allowed, 60);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kvRetry() retries transient errors only", async () => {
  let calls = 0;
  const v = await kvRetry(() => {
    if (++calls < 3) throw new Error("database is locked");
    return Promise.resolve("ok");
  }, { baseMs: 1 });
  assertEquals([v, calls], ["ok", 3]);
  let other = 0;
  const err = await kvRetry(() => {
    other++;
    throw new TypeError("Value too large");
  }).catch((e) => e);
  assertEquals([err instanceof TypeError, other], [true, 1]);
  assertEquals(isTransientKvError(new Error("SQLITE_BUSY: database is locked")), true);
});
