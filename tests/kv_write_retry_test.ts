/**
 * Every KV write retries a transient failure (lib/kv/retry.ts; docs/architecture.md): the
 * log-in throttle too, whose writes were the last ones made without it. A KV whose first
 * commit and first delete fail with "database is locked" (another process holding the file)
 * still records the failure and clears it, instead of turning a log-in into a 500.
 */
import { assertEquals } from "./assert.ts";
import { clearLoginFailures, recordLoginFailure } from "../lib/auth/throttle.ts";
import { clearAccountAttempts, takeAccountAttempt } from "../lib/auth/account_throttle.ts";

/** `kv` whose first `n` atomic commits and first `n` deletes throw a transient error. */
function lockedAtFirst(kv: Deno.Kv, n = 1) {
  const left = { commit: n, delete: n };
  const locked = () => Promise.reject(new Error("database is locked"));
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => left.commit-- > 0 ? locked() : commit();
          return op;
        };
      }
      if (prop === "delete") {
        return (key: Deno.KvKey) => left.delete-- > 0 ? locked() : target.delete(key);
      }
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

Deno.test("the log-in throttle's writes retry a locked KV", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const flaky = lockedAtFirst(kv);
    const key = ["login_throttle", "ana@example.com", "192.0.2.1"];
    await recordLoginFailure(flaky, "Ana@example.com", "192.0.2.1", 1_000);
    assertEquals((await kv.get<{ count: number }>(key)).value?.count, 1);
    await clearLoginFailures(flaky, "ana@example.com", "192.0.2.1");
    assertEquals((await kv.get(key)).value, null);
  } finally {
    kv.close();
  }
});

Deno.test("the per-account log-in budget's writes retry a locked KV", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const flaky = lockedAtFirst(kv);
    const key = ["login_account", "ana@example.com"];
    await takeAccountAttempt(flaky, "Ana@example.com", 1_000);
    assertEquals((await kv.get<{ count: number }>(key)).value?.count, 1);
    await clearAccountAttempts(flaky, "ana@example.com");
    assertEquals((await kv.get(key)).value, null);
  } finally {
    kv.close();
  }
});
