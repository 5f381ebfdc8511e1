import type { Sql } from "postgres";
import { assertEquals } from "../../tests/assert.ts";
import { silentLogger } from "../log.ts";
import { renewablePool, STUCK_AFTER_DEADLINES } from "./pool_watchdog.ts";

/**
 * Pools that record how they were ended and answer `SELECT 1` or stay silent (`stuck`), and
 * a probe (a fresh connection) the test answers when it likes.
 */
function fakes(stuck: boolean) {
  const ended: number[] = [];
  let made = 0;
  const makePool = () => {
    made++;
    const silent = stuck && made === 1;
    return {
      options: { parsers: {}, serializers: {} },
      unsafe: () =>
        Object.assign(silent ? new Promise(() => {}) : Promise.resolve([]), {
          strings: ["SELECT 1"],
          args: [],
        }),
      end: ({ timeout }: { timeout: number }) => {
        ended.push(timeout);
        return Promise.resolve();
      },
    } as unknown as Sql;
  };
  let answerProbe = (_fresh: boolean) => {};
  const probe = () => new Promise<boolean>((r) => answerProbe = r);
  return { ended, made: () => made, makePool, probe, answer: (f: boolean) => answerProbe(f) };
}

const settle = (ms = 0) => new Promise((r) => setTimeout(r, ms));

Deno.test("pool watchdog: a pool that answers once the database is back is kept", async () => {
  const f = fakes(false);
  const pool = renewablePool("postgres://x", f.makePool, silentLogger, f.probe);
  for (let i = 0; i < STUCK_AFTER_DEADLINES; i++) pool.onDeadline();
  f.answer(true); // the database came back: the probe's fresh connection answered first
  await settle();
  assertEquals(f.made(), 1, "no new pool");
  assertEquals(f.ended, []);
});

Deno.test("pool watchdog: a stuck pool is replaced; its statements get a grace to finish", async () => {
  const f = fakes(true);
  const pool = renewablePool("postgres://x", f.makePool, silentLogger, f.probe);
  for (let i = 0; i < STUCK_AFTER_DEADLINES; i++) pool.onDeadline();
  f.answer(true);
  await settle(2_100); // the pool's own SELECT 1 misses its 2 s
  assertEquals(f.made(), 2);
  assertEquals(f.ended.length, 1);
  assertEquals(f.ended[0] > 0, true, `grace ${f.ended[0]} s`);
});

Deno.test("pool watchdog: a probe that fails too means an outage; the pool is kept", async () => {
  const f = fakes(true);
  const pool = renewablePool("postgres://x", f.makePool, silentLogger, f.probe);
  for (let i = 0; i < STUCK_AFTER_DEADLINES; i++) pool.onDeadline();
  f.answer(false);
  await settle();
  assertEquals(f.made(), 1);
  // ... and at shutdown after a missed deadline the flush runs on a fresh pool, no grace.
  pool.onDeadline();
  await pool.renewIfSuspect();
  assertEquals(f.made(), 2);
  assertEquals(f.ended, [0]);
});
