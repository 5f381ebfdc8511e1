/**
 * The edge side of AI transforms and experiments: `?transform=<profile>` runs
 * the runner on JSON, caches per profile and regenerate version, coalesces
 * concurrent misses, fails open; experiment assignments apply their profile
 * and headers. The runner here is a tiny in-test TransformRunner.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, type SnapshotOverrides, startUpstream } from "./fakes/upstream.ts";
import type { TransformRunner } from "../edge/types.ts";
import { EMPTY_AI_SNAPSHOT } from "../lib/ai/snapshot_types.ts";
import { RETRY_TTL_MS } from "../edge/transform.ts";

type Call = { profile: string; apiPath: string; body: string };

/** Upper-cases the `title` field; counts calls; can be told to fail or to wait. */
function runner(mode: { fail?: "throw" | "error"; wait?: Promise<void> } = {}) {
  const calls: Call[] = [];
  const r: TransformRunner = {
    async runtime({ profile, apiPath, body }) {
      calls.push({ profile, apiPath, body });
      if (mode.wait) await mode.wait;
      if (mode.fail === "throw") throw new Error("model down");
      if (mode.fail === "error") return { body, outcome: "error", skipReason: "boom" };
      const data = JSON.parse(body);
      if (profile === "none") return { body, outcome: "passthrough", skipReason: "no-rules" };
      if (profile === "slow") return { body, outcome: "passthrough", skipReason: "model-timeout" };
      data.title = `${String(data.title).toUpperCase()}:${profile}`;
      return {
        body: JSON.stringify(data),
        outcome: profile === "half" ? "partial" : "applied",
        skipReason: null,
      };
    },
  };
  return { r, calls };
}

async function setup(transform: TransformRunner | null, snapshot?: SnapshotOverrides) {
  const up = startUpstream();
  up.route("/post", () => Response.json({ title: "hello" }, { headers: { etag: '"v1"' } }));
  up.route(
    "/page",
    () => new Response("<h1>hi</h1>", { headers: { "content-type": "text/html" } }),
  );
  const fx = await edgeFixture(up.url, { transform, snapshot });
  return {
    up,
    fx,
    async [Symbol.asyncDispose]() {
      fx.close();
      await up.close();
    },
  };
}

// ---- happy ----

Deno.test("a transient skip (model-timeout) is retried after RETRY_TTL_MS; a stable one keeps the TTL", async () => {
  const { r, calls } = runner();
  await using t = await setup(r);
  for (const profile of ["slow", "none"]) {
    const res = await t.fx.request(`/~api/post?transform=${profile}`);
    assertEquals(res.headers.get("x-ai-transform"), "skipped");
    await res.text();
  }
  assertEquals(calls.length, 2);
  t.fx.clock.advance(RETRY_TTL_MS + 1);
  for (const profile of ["slow", "none"]) {
    await (await t.fx.request(`/~api/post?transform=${profile}`)).text();
  }
  assertEquals(
    calls.map((c) => c.profile),
    ["slow", "none", "slow"],
    "only the transient skip is retried",
  );
});

Deno.test("?transform=<profile> runs the runner on JSON and caches the result", async () => {
  const { r, calls } = runner();
  await using t = await setup(r);
  const a = await t.fx.request("/~api/post?transform=formal");
  assertEquals(a.headers.get("x-ai-transform"), "applied");
  assertEquals(a.headers.get("x-cachely-cache"), "MISS");
  assertEquals(a.headers.get("access-control-expose-headers"), null, "no Origin: not CORS");
  assertEquals((await a.json()).title, "HELLO:formal");
  const b = await t.fx.request("/~api/post?transform=formal");
  assertEquals(b.headers.get("x-cachely-cache"), "HIT");
  assertEquals(b.headers.get("x-ai-transform"), "applied");
  assertEquals(b.headers.get("access-control-expose-headers"), null, "no Origin: not CORS");
  // Browser code (a request with Origin) can read the transform and cache headers.
  for (let i = 0; i < 2; i++) {
    const cors = await t.fx.request("/~api/post?transform=formal", {
      headers: { origin: "https://www.acme.example" },
    });
    await cors.body?.cancel();
    assertEquals(cors.headers.get("x-ai-transform"), "applied");
    const exposed = cors.headers.get("access-control-expose-headers")!.split(", ");
    assert(exposed.includes("x-ai-transform") && exposed.includes("x-cachely-cache"));
  }
  assertEquals((await b.json()).title, "HELLO:formal");
  assertEquals(calls.length, 1);
  assertEquals(calls[0].apiPath, "/post");
  // the plain response is its own key and untouched
  assertEquals(b.headers.get("etag"), null, "the upstream validator does not describe this body");
  const plain = await t.fx.request("/~api/post");
  assertEquals(plain.headers.get("etag"), '"v1"');
  assertEquals((await plain.json()).title, "hello");
  assertEquals(plain.headers.get("x-ai-transform"), null);
  assertEquals(t.up.count("/post"), 1);
});

Deno.test("a regenerate version bump for the profile makes a new transform key", async () => {
  const { r, calls } = runner();
  await using t = await setup(r);
  await (await t.fx.request("/~api/post?transform=formal")).text();
  await t.fx.update({ ai: { ...EMPTY_AI_SNAPSHOT, regenVersions: { formal: 1 } } });
  const again = await t.fx.request("/~api/post?transform=formal");
  assertEquals(again.headers.get("x-cachely-cache"), "MISS");
  await again.text();
  assertEquals(calls.length, 2);
  assertEquals(t.up.count("/post"), 1, "the plain upstream response is still cached");
});

Deno.test("concurrent transform misses share one model call", async () => {
  const gate = Promise.withResolvers<void>();
  const { r, calls } = runner({ wait: gate.promise });
  await using t = await setup(r);
  const all = Array.from({ length: 20 }, () => t.fx.request("/~api/post?transform=formal"));
  await new Promise((res) => setTimeout(res, 50));
  gate.resolve();
  const responses = await Promise.all(all);
  for (const res of responses) assertEquals((await res.json()).title, "HELLO:formal");
  assertEquals(calls.length, 1);
  assertEquals(t.up.count("/post"), 1);
});

Deno.test("partial and passthrough outcomes map to X-AI-Transform partial and skipped", async () => {
  const { r } = runner();
  await using t = await setup(r);
  const half = await t.fx.request("/~api/post?transform=half");
  assertEquals(half.headers.get("x-ai-transform"), "partial");
  await half.text();
  const none = await t.fx.request("/~api/post?transform=none");
  assertEquals(none.headers.get("x-ai-transform"), "skipped");
  assertEquals(none.headers.get("x-ai-transform-skip-reason"), "no-rules");
  assertEquals((await none.json()).title, "hello");
});

Deno.test("an experiment assignment applies its profile, adds headers and counts the exposure", async () => {
  const { r, calls } = runner();
  await using t = await setup(r, {
    experiments: [{
      id: 7,
      routePattern: "/post",
      routeMatch: "prefix",
      variants: [{ id: 70, key: "fancy", weight: 100, transformProfile: "fancy" }],
    }],
  });
  const res = await t.fx.request("/~api/post", { headers: { "user-agent": "Mozilla/5.0" } });
  assertEquals(res.headers.get("x-cachely-experiment-id"), "7");
  assertEquals(res.headers.get("x-cachely-variant-id"), "70");
  assertEquals(res.headers.get("x-cachely-variant-key"), "fancy");
  assertEquals(res.headers.get("x-cachely-experiment-profile"), "fancy");
  assertEquals(res.headers.get("x-ai-transform"), "applied");
  const exposed = res.headers.get("access-control-expose-headers")!.split(", ");
  for (const h of ["x-cachely-experiment-id", "x-cachely-variant-id", "x-cachely-variant-key"]) {
    assert(exposed.includes(h), h);
  }
  assert(exposed.includes("x-cachely-experiment-profile") && exposed.includes("x-ai-transform"));
  assertEquals((await res.json()).title, "HELLO:fancy");
  // The exposure names the arm, and the visitor and network hashes guardrails count by.
  const { visitor, network, ...arm } = t.fx.usage.at(-1)!.experiment!;
  assertEquals(arm, { experimentId: 7, variantId: 70, variantKey: "fancy" });
  assert(Number.isInteger(visitor) && Number.isInteger(network), `${visitor} ${network}`);
  // the experiment response shares the key of that profile
  const direct = await t.fx.request("/~api/post?transform=fancy");
  assertEquals(direct.headers.get("x-cachely-cache"), "HIT");
  assertEquals(
    direct.headers.get("x-cachely-experiment-id"),
    null,
    "?transform bypasses experiments",
  );
  await direct.text();
  assertEquals(calls.length, 1);
});

Deno.test("a control assignment serves the plain response with experiment-control headers", async () => {
  const { r, calls } = runner();
  await using t = await setup(r, {
    experiments: [{
      id: 8,
      routePattern: "/post",
      routeMatch: "prefix",
      variants: [{ id: 80, key: "control", weight: 100, transformProfile: null }],
    }],
  });
  const res = await t.fx.request("/~api/post", { headers: { "user-agent": "Mozilla/5.0" } });
  assertEquals(res.headers.get("x-cachely-variant-key"), "control");
  assertEquals(res.headers.get("x-cachely-experiment-profile"), "control");
  assertEquals(res.headers.get("x-ai-transform"), "skipped");
  assertEquals(res.headers.get("x-ai-transform-skip-reason"), "experiment-control");
  assertEquals((await res.json()).title, "hello");
  assertEquals(calls.length, 0);
  const plain = await t.fx.request("/~api/post");
  assertEquals(plain.headers.get("x-cachely-cache"), "HIT", "control shares the plain key");
  await plain.text();
});

Deno.test("a bot gets an assignment that is not counted as an exposure", async () => {
  const { r } = runner();
  await using t = await setup(r, {
    experiments: [{
      id: 9,
      routePattern: "/post",
      routeMatch: "prefix",
      variants: [
        { id: 90, key: "control", weight: 50, transformProfile: null },
        { id: 91, key: "b", weight: 50, transformProfile: "b" },
      ],
    }],
  });
  const res = await t.fx.request("/~api/post", { headers: { "user-agent": "Googlebot/2.1" } });
  await res.text();
  assertEquals(t.fx.usage.at(-1)!.experiment, null);
});

// ---- errors (fail-open) ----

Deno.test("a throwing runner fails open: original body, X-AI-Transform skipped, nothing cached", async () => {
  const { r, calls } = runner({ fail: "throw" });
  await using t = await setup(r);
  const a = await t.fx.request("/~api/post?transform=formal");
  assertEquals(a.status, 200);
  assertEquals(a.headers.get("x-ai-transform"), "skipped");
  assertEquals(a.headers.get("x-ai-transform-skip-reason"), "internal-error");
  assertEquals((await a.json()).title, "hello");
  await (await t.fx.request("/~api/post?transform=formal")).text();
  assertEquals(calls.length, 2, "a failure is not cached");
  assert(t.fx.logs.some((l) => l.includes("edge transform failed")));
});

Deno.test("an error outcome fails open too", async () => {
  const { r } = runner({ fail: "error" });
  await using t = await setup(r);
  const a = await t.fx.request("/~api/post?transform=formal");
  assertEquals(a.headers.get("x-ai-transform"), "skipped");
  assertEquals((await a.json()).title, "hello");
});

Deno.test("non-JSON upstream and HEAD are never transformed", async () => {
  const { r, calls } = runner();
  await using t = await setup(r);
  const html = await t.fx.request("/~api/page?transform=formal");
  assertEquals(html.headers.get("x-ai-transform"), "skipped");
  assertEquals(html.headers.get("x-ai-transform-skip-reason"), "not-json");
  assertEquals(await html.text(), "<h1>hi</h1>");
  const head = await t.fx.request("/~api/post?transform=formal", { method: "HEAD" });
  assertEquals(head.headers.get("x-ai-transform"), null);
  assertEquals(calls.length, 0);
});

Deno.test("without a runner, ?transform passes through with skip reason ai-not-configured", async () => {
  await using t = await setup(null);
  const a = await t.fx.request("/~api/post?transform=formal");
  assertEquals(a.headers.get("x-ai-transform-skip-reason"), "ai-not-configured");
  assertEquals((await a.json()).title, "hello");
});
