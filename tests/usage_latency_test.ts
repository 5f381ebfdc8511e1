/**
 * Latency figures: known origin delays through real edges give edge and
 * origin p50/p95/p99 within one sketch bucket of the truth, and two instances' sketches
 * merge in the database (each flushes its own counts into the same day and hour rows).
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, PROXY_DOMAIN, secondInstance } from "./harness.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { sketchBucket } from "../lib/usage/latency_sketch.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 30, 0);
const FAST_MS = 40;
const SLOW_MS = 160;
const N = 10;
/** Every request logged (the manual clock puts them all in one second: no per-second cap). */
const LOG_ALL = { REQUEST_LOG_SAMPLE_RATE: "1", REQUEST_LOG_MAX_PER_SECOND: "0" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The q-quantile of `values` as the sketch defines it: the value at rank ceil(q × n). */
function truth(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/** `reported` lies in the bucket of `expected`, or the one next to it. */
function assertWithinOneBucket(reported: number, expected: number, what: string): void {
  const d = Math.abs(sketchBucket(reported) - sketchBucket(expected));
  assert(d <= 1, `${what}: ${reported} ms is ${d} buckets from ${expected} ms`);
}

dbTest(
  "edge and origin quantiles from a slow origin, merged across two instances",
  async (app) => {
    app.clock.set(NOW);
    const up = startUpstream();
    for (let i = 0; i < N; i++) {
      up.route(`/fast/${i}`, async () => {
        await sleep(FAST_MS);
        return Response.json({ i });
      });
      up.route(`/slow/${i}`, async () => {
        await sleep(SLOW_MS);
        return Response.json({ i });
      });
    }
    const other = await secondInstance(app, LOG_ALL);
    try {
      const { owner, slug, get } = await tenantOnUpstream(app, up);
      // this instance: N misses at FAST_MS, then N hits; the other: N misses at SLOW_MS
      for (let i = 0; i < N; i++) assertEquals((await get(`/~api/fast/${i}`)).status, 200);
      for (let i = 0; i < N; i++) assertEquals((await get(`/~api/fast/${i}`)).status, 200);
      const elsewhere = new Client(other);
      for (let i = 0; i < N; i++) {
        const res = await elsewhere.get(`http://${slug}.${PROXY_DOMAIN}/~api/slow/${i}`);
        assertEquals(res.status, 200);
      }
      await app.instance.usageAggregator.flush();
      await other.instance.usageAggregator.flush();

      const usage = await owner.get(`/api/tenants/${slug}/usage`);
      assertEquals(usage.status, 200);
      assertEquals(usage.body.current.requests, 3 * N, "both instances' requests");
      assertEquals(usage.body.current.originRequests, 2 * N);
      const { edge, origin } = usage.body.current.latency;
      assertEquals(usage.body.previous.latency, { edge: null, origin: null });

      // Edge time: every request is logged (sample rate 1 on both), durations to the ms.
      const rows = await app.services.dbHandle.query<{ duration_ms: number }>(
        "SELECT duration_ms FROM request_logs ORDER BY id",
      );
      const edgeTimes = rows.map((r) => Number(r.duration_ms));
      assertEquals(edgeTimes.length, 3 * N);
      assertWithinOneBucket(edge.p50Ms, truth(edgeTimes, 0.5), "edge p50");
      assertWithinOneBucket(edge.p95Ms, truth(edgeTimes, 0.95), "edge p95");
      assertWithinOneBucket(edge.p99Ms, truth(edgeTimes, 0.99), "edge p99");
      assert(edge.p50Ms >= FAST_MS * 0.9, `edge p50 ${edge.p50Ms}: a fast miss, not a hit`);
      assert(edge.p95Ms >= SLOW_MS, `edge p95 ${edge.p95Ms}: a slow miss`);

      // Origin time: each miss's upstream time lies between its origin's delay and its edge
      // time, so each quantile lies between theirs (order statistics keep the order).
      const missRows = await app.services.dbHandle.query<{ duration_ms: number }>(
        "SELECT duration_ms FROM request_logs WHERE cache = 'MISS'",
      );
      const missTimes = missRows.map((r) => Number(r.duration_ms) + 0.5); // rounded to the ms
      assertEquals(missTimes.length, 2 * N);
      const delays = [...Array(N).fill(FAST_MS), ...Array(N).fill(SLOW_MS)];
      for (const [q, got] of [[0.5, origin.p50Ms], [0.95, origin.p95Ms], [0.99, origin.p99Ms]]) {
        const lo = sketchBucket(truth(delays, q)) - 1;
        const hi = sketchBucket(truth(missTimes, q)) + 1;
        const b = sketchBucket(got);
        assert(lo <= b && b <= hi, `origin p${q * 100} ${got} ms: buckets ${lo} … ${hi}`);
      }

      // The day row holds both instances' counts: 3N edge times and 2N origin times.
      const [day] = await app.services.dbHandle.query<
        { edge_latency: string[] | number[]; origin_latency: string[] | number[] }
      >("SELECT edge_latency, origin_latency FROM usage_daily");
      const sum = (a: (string | number)[]) => a.reduce((n: number, v) => n + Number(v), 0);
      assertEquals([sum(day.edge_latency), sum(day.origin_latency)], [3 * N, 2 * N]);

      // The same quantiles per hour (the hour's row merged alike)
      const hourly = await owner.get(`/api/tenants/${slug}/usage-hourly?hours=2`);
      assertEquals(hourly.status, 200);
      const [before, hour] = hourly.body.points;
      assertEquals(before.latency, { edge: null, origin: null });
      assertEquals(hour.latency, usage.body.current.latency);
    } finally {
      await other.close();
      await up.close();
    }
  },
  { env: LOG_ALL },
);
