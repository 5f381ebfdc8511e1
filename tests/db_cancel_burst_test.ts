/**
 * Cancel requests toward a frozen pooler. The app's pool (lib/db/client.ts: 4 connections, a
 * deadline on every statement) reaches PostgreSQL through a relay that, frozen, accepts
 * connections and reads their first bytes but forwards nothing, as a SIGSTOPped pgbouncer
 * whose kernel still accepts. Statements then miss their deadline and the app cancels them.
 * Counted at the relay: how many cancel requests are open at once (at most
 * MAX_CANCELS_IN_FLIGHT), and how many the app closed itself before the pooler answered them
 * (none: pgbouncer 1.18 exits when a cancel's socket closes while it forwards it). After the
 * thaw the cancels are forwarded to PostgreSQL and the pool answers again. Skips without
 * TEST_DATABASE_URL.
 */
import { assert, assertEquals } from "./assert.ts";
import { openDb } from "../lib/db/client.ts";
import { MAX_CANCELS_IN_FLIGHT } from "../lib/db/cancel.ts";
import { keepRunningOnDatabaseErrors } from "../lib/db/outage_guard.ts";
import { silentLogger } from "../lib/log.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("db_cancel_burst_test: skipped: TEST_DATABASE_URL is not set");

const CANCEL_CODE = 80877102;

/** A freezable relay that tells cancel requests apart and watches how they end. */
function cancelWatchingRelay(target: URL) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let gate: Promise<void> = Promise.resolve();
  let thaw = () => {};
  const counts = { cancels: 0, open: 0, maxOpen: 0, closedByAppWhileFrozen: 0 };
  const conns = new Set<Deno.Conn>();
  const dial = () => Deno.connect({ hostname: target.hostname, port: Number(target.port || 5432) });
  const pipe = async (from: ReadableStreamDefaultReader<Uint8Array>, to: Deno.Conn) => {
    try {
      for (;;) {
        const { value, done } = await from.read();
        if (done) break;
        await gate;
        await to.write(value);
      }
    } catch { /* cut */ }
    for (const c of [to]) {
      try {
        c.close();
      } catch { /* closed */ }
    }
  };
  const cancel = async (
    conn: Deno.Conn,
    reader: ReadableStreamDefaultReader<Uint8Array>,
    first: Uint8Array,
  ) => {
    counts.cancels++;
    counts.maxOpen = Math.max(counts.maxOpen, ++counts.open);
    let thawed = false;
    const eof = reader.read().then((r) => r.done, () => true);
    const closedFirst = await Promise.race([eof, gate.then(() => (thawed = true, false))]);
    if (closedFirst && !thawed) counts.closedByAppWhileFrozen++;
    await gate;
    const up = await dial();
    await up.write(first); // PostgreSQL cancels, then closes
    await up.read(new Uint8Array(16)).catch(() => null);
    for (const c of [up, conn]) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    counts.open--;
  };
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      (async () => {
        const reader = conn.readable.getReader();
        const { value } = await reader.read();
        if (!value) return;
        const code = value.length >= 8
          ? new DataView(value.buffer, value.byteOffset).getInt32(4)
          : 0;
        if (code === CANCEL_CODE) return cancel(conn, reader, value);
        await gate;
        const up = await dial();
        conns.add(up);
        await up.write(value);
        pipe(reader, up);
        pipe(up.readable.getReader(), conn);
      })().catch(() => {});
    }
  })().catch(() => {});
  const url = new URL(target);
  url.host = `127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return {
    url: url.toString(),
    counts,
    freeze: () => gate = new Promise((r) => thaw = r),
    thaw: () => (thaw(), gate = Promise.resolve()),
    close() {
      thaw();
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

Deno.test({
  name: "cancels toward a frozen pooler: bounded in flight, never closed before it answers",
  ignore: !BASE,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    keepRunningOnDatabaseErrors(silentLogger); // as main.ts: errors nothing awaited
    const relay = cancelWatchingRelay(new URL(BASE!));
    const db = await openDb({ url: relay.url, maxConnections: 4, requestTimeoutMs: 1_000 }, false);
    try {
      // Every connection logged in, then busy with a statement the freeze leaves unanswered.
      // (Retried: on a loaded machine a login can take longer than the 1 s deadline.)
      for (let i = 0; i < 20; i++) {
        const all = Promise.all([1, 2, 3, 4].map(() => db.query("SELECT pg_sleep(0.3)")));
        if (await all.then(() => true, () => false)) break;
      }
      relay.freeze();
      const late = await Promise.allSettled(
        Array.from({ length: 16 }, () => db.query("SELECT 1")),
      );
      assertEquals(
        late.filter((r) => r.status === "rejected").length,
        16,
        "all missed the deadline",
      );
      // Longer than the pool's connect timeout (1 s): postgres.js closed its cancels by then.
      await new Promise((r) => setTimeout(r, 4_000));
      const frozen = { ...relay.counts };
      relay.thaw();
      let answered = false;
      for (let i = 0; i < 40 && !answered; i++) {
        answered = await db.query("SELECT 1").then(() => true, () => false);
        if (!answered) await new Promise((r) => setTimeout(r, 250));
      }
      console.log(
        `db_cancel_burst_test: while frozen ${frozen.cancels} cancel requests, at most ` +
          `${frozen.maxOpen} open at once, ${frozen.closedByAppWhileFrozen} closed by the app ` +
          `before the pooler answered`,
      );
      assert(frozen.cancels > 0, "statements past their deadline were cancelled");
      assert(
        frozen.maxOpen <= MAX_CANCELS_IN_FLIGHT,
        `at most ${MAX_CANCELS_IN_FLIGHT} open at once, saw ${frozen.maxOpen}`,
      );
      assertEquals(frozen.closedByAppWhileFrozen, 0, "no cancel closed before the pooler answered");
      assert(answered, "the pool answers after the thaw");
    } finally {
      relay.thaw();
      await db.close();
      relay.close();
    }
  },
});
