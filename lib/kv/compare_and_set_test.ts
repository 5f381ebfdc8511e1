import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { kvCompareAndSet, LOST_RACE } from "./compare_and_set.ts";

Deno.test("kvCompareAndSet() gives up after `attempts` lost races with the exhausted outcome", async () => {
  let steps = 0;
  const out = await kvCompareAndSet(() => {
    steps++;
    return Promise.resolve(LOST_RACE);
  }, { attempts: 7, exhausted: () => "gave up" });
  assertEquals([out, steps], ["gave up", 7]);
});

Deno.test("kvCompareAndSet() repeats a step after a transient error, then returns its outcome", async () => {
  let steps = 0;
  const out = await kvCompareAndSet(() => {
    steps++;
    if (steps === 1) return Promise.reject(new Error("database is locked"));
    if (steps === 2) return Promise.resolve(LOST_RACE);
    return Promise.resolve(steps);
  }, { attempts: 3, exhausted: () => -1 });
  assertEquals(out, 3);
});

Deno.test("kvCompareAndSet() throws a non-transient error at once", async () => {
  let steps = 0;
  await assertRejects(
    () =>
      kvCompareAndSet(() => {
        steps++;
        return Promise.reject(new Error("bad value"));
      }, { attempts: 5, exhausted: () => 0 }),
  );
  assertEquals(steps, 1);
});
