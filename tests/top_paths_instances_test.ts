/**
 * Top paths from exact counters, across real processes: two instances of the program on one
 * PostgreSQL database count requests per path in memory and flush them with their usage
 * (path_counts). A path with 1,080 requests ranks above an erroring one with 5, with those
 * exact figures, whatever the 1 % log sample kept. Skips (saying why) without TEST_DATABASE_URL.
 */
import { assertEquals } from "./assert.ts";
import { edgeGet, type Instance, sharedWorld, signUp, startInstance, stop } from "./instances.ts";
import { startUpstream } from "./fakes/upstream.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("top_paths_instances_test: skipped: no TEST_DATABASE_URL");

type TopPath = { path: string; requests: number; errors: number; overcount: number };

Deno.test({
  name: "two instances: a path with 1,080 requests tops one with 5 errors, counted exactly",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const world = await sharedWorld(BASE!, "cachely_paths");
    const up = startUpstream();
    up.route("/busy", () => Response.json({ ok: true }));
    up.route("/broken", () => new Response("down", { status: 503 }));
    const env = { ...world.env, USAGE_FLUSH_INTERVAL_MS: "300", REQUEST_LOG_SAMPLE_RATE: "0.01" };
    const instances: Instance[] = [];
    try {
      instances.push(await startInstance(env), await startInstance(env));
      const [a, b] = instances;
      const owner = await signUp(a);
      const slug = `paths-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(a, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: up.url,
      });
      assertEquals(created.status, 201, created.text);
      const host = `${slug}.localhost:8000`;
      // Both instances serve the tenant once its snapshot reached them.
      for (const inst of instances) {
        for (let i = 0; i < 100 && await edgeGet(inst, host, "/~api/busy") !== 200; i++) {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const statuses: number[] = [];
      for (let round = 0; round < 2; round++) {
        const inst = instances[round];
        // 540 per instance (the 2 warm-up requests above included), 10 at a time.
        for (let i = 0; i < 539; i += 10) {
          const n = Math.min(10, 539 - i);
          statuses.push(
            ...await Promise.all(
              Array.from({ length: n }, () => edgeGet(inst, host, "/~api/busy")),
            ),
          );
        }
      }
      for (let i = 0; i < 5; i++) statuses.push(await edgeGet(i % 2 ? a : b, host, "/~api/broken"));
      assertEquals(statuses.filter((s) => s === 200).length, 1078);
      assertEquals(statuses.slice(-5).every((s) => s >= 500), true, String(statuses.slice(-5)));

      let top: TopPath[] = [];
      for (let i = 0; i < 100; i++) {
        const r = await owner.req(a, "GET", `/api/tenants/${slug}/analytics`);
        assertEquals(r.status, 200, r.text);
        top = r.body.topPaths ?? [];
        if (r.body.totals.requests >= 1085 && top.length >= 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assertEquals(
        top.map((t) => [t.path, t.requests, t.errors, t.overcount]),
        [["/~api/busy", 1080, 0, 0], ["/~api/broken", 5, 5, 0]],
      );
    } finally {
      for (const inst of instances) await stop(inst);
      await up.close();
      await world.close();
    }
  },
});
