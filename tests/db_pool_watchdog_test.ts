/**
 * A pool whose own connections are stuck while the database answers others is replaced, and
 * the final flush at shutdown never waits on it. A real process (`deno run -A main.ts`)
 * reaches PostgreSQL through a relay that freezes the connections its pool holds; new
 * connections still pass. Statements then keep missing the deadline: after a few in a row a
 * fresh probe connection answers, so the pool is ended and rebuilt (logged, counted in
 * /metrics); at SIGINT the usage recorded before is flushed on a fresh pool.
 */
import postgres from "postgres";
import { assert, assertEquals } from "./assert.ts";
import { edgeGet, instanceBehindRelay } from "./instances.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("db_pool_watchdog_test: skipped: TEST_DATABASE_URL is not set");

const METRICS_TOKEN = "metrics-token-0123456789";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pgTest = {
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after stop()
  sanitizeResources: false,
};

/** An instance through a freezable relay, with its pool's four connections open. */
async function stuckWorld(prefix: string) {
  const w = await instanceBehindRelay(BASE!, prefix, "wd", {
    DB_REQUEST_TIMEOUT_MS: "1000",
    METRICS_TOKEN,
  });
  const get = () =>
    w.owner.req(w.inst, "GET", "/api/tenants").catch((e) => ({ status: 0, text: String(e) }));
  // Enough at once that the pool opens all its connections.
  await Promise.all([...Array(12)].map(get));
  return { ...w, get };
}

Deno.test({
  ...pgTest,
  name: "statements missing the deadline while a fresh connection answers: the pool is rebuilt",
  async fn() {
    const w = await stuckWorld("cachely_faults_wd");
    try {
      w.relay.freezeOpen(); // the pool's connections go silent; the database still answers
      const t0 = performance.now();
      const seen: number[] = [];
      let last = await w.get();
      while (last.status !== 200 && performance.now() - t0 < 20_000) {
        seen.push(last.status);
        last = await w.get();
      }
      const took = Math.round(performance.now() - t0);
      console.log(`db_pool_watchdog_test: ${seen.join(",")} then ${last.status} after ${took} ms`);
      assertEquals(last.status, 200, "the instance answers again on a rebuilt pool");
      assert(took < 12_000, `rebuilt after ${took} ms`);
      const metrics = await fetch(`http://127.0.0.1:${w.inst.port}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }).then((r) => r.text());
      assert(
        /^cachely_database_pool_rebuilds_total 1$/m.test(metrics),
        metrics.split("\n").filter((l) => l.includes("pool")).join("\n"),
      );
      assert(w.inst.out.some((l) => l.includes("database pool replaced")), "logged");
    } finally {
      await w.close();
    }
  },
});

Deno.test({
  ...pgTest,
  name: "SIGINT with a stuck pool: usage flushed on a fresh connection, exit well under 4 s",
  async fn() {
    const w = await stuckWorld("cachely_faults_wdflush");
    try {
      for (let i = 0; i < 5; i++) assertEquals(await edgeGet(w.inst, w.host, `/~api/u${i}`), 200);
      w.relay.freezeOpen();
      assertEquals((await w.get()).status, 503); // one statement missed its deadline
      await sleep(100);
      const t0 = performance.now();
      w.inst.child.kill("SIGINT");
      assertEquals(await w.inst.exited, 0);
      const took = Math.round(performance.now() - t0);
      const sql = postgres(w.world.url.toString(), { max: 1, onnotice: () => {} });
      const [{ n }] = await sql`SELECT coalesce(sum(u.requests), 0)::int AS n FROM usage_daily u
        JOIN tenants t ON t.id = u.tenant_id WHERE t.slug = ${w.slug}`;
      await sql.end();
      console.log(`db_pool_watchdog_test: exit ${took} ms after SIGINT, ${n} requests counted`);
      assert(n >= 5, `usage counted after shutdown: ${n}`);
      assert(took < 3_000, `exited ${took} ms after SIGINT`);
    } finally {
      await w.close();
    }
  },
});
