/**
 * experiment_visitors across instances (lib/usage/pg_visitors.ts): two instances' flushes
 * of the same visitor make one row (its 5xx and slowest answer merged), and a flush
 * written twice counts nothing twice.
 */
import { assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { postgresFlushTarget } from "../lib/usage/pg_target.ts";
import type { VisitorDelta } from "../lib/usage/visitor_windows.ts";
import type { UsageBatch } from "../lib/usage/types.ts";

const W = Date.UTC(2026, 10, 27, 12, 0, 0);

dbTest("visitors are counted once across instances and flushes", async (app) => {
  const owner = await signUp(app);
  const tenantId = await tenantIdOf(app, await createTenant(owner));
  const row = (visitor: number, p: Partial<VisitorDelta> = {}): VisitorDelta => ({
    tenantId,
    experimentId: 9,
    variantId: 1,
    variantKey: "v",
    windowStart: W,
    visitor,
    network: visitor % 7,
    firstSeenAt: W + 5,
    errored: false,
    slowest: 1,
    ...p,
  });
  const batch = (visitors: VisitorDelta[]): UsageBatch => ({
    buckets: [],
    logs: [],
    exposures: [],
    visitors,
  });
  const a = postgresFlushTarget(app.services.db);
  const b = postgresFlushTarget(app.services.db);
  await a.write(batch([row(1), row(2)]));
  await b.write(batch([row(1, { errored: true, slowest: 4, firstSeenAt: W + 1 }), row(3)]));
  await a.write(batch([row(1), row(2)])); // the same flush again (a doubted one retried)
  const rows = await app.services.dbHandle.query<Record<string, unknown>>(
    `SELECT visitor_hash::int AS v, errored, slowest, first_seen_at FROM experiment_visitors
     WHERE experiment_id = 9 ORDER BY visitor_hash`,
  );
  assertEquals(rows.map((r) => [r.v, r.errored, r.slowest]), [
    [1, true, 4],
    [2, false, 1],
    [3, false, 1],
  ]);
  assertEquals(new Date(rows[0].first_seen_at as string).getTime(), W + 1);

  await b.write(batch([row(2, { errored: true })]));
  const [two] = await app.services.dbHandle.query<{ errored: boolean }>(
    `SELECT errored FROM experiment_visitors WHERE experiment_id = 9 AND visitor_hash = 2`,
  );
  assertEquals(two.errored, true);
});
