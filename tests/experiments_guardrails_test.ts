// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Experiments that stop themselves: guardrails on create and update, a variant
 * whose answers turn 5xx stopped within 60 s of fake time through the real edge, usage
 * aggregator and guardrail pass; one stop however many instances look; promote winner.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, signUp, type TestApp } from "./harness.ts";
import { activeRule, aiTest } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { checkGuardrails } from "../lib/experiments/guardrail_loop.ts";
import { findBreach } from "../lib/experiments/guardrails.ts";
import { loadConfig } from "../lib/config.ts";
import { assignExperiment } from "../edge/experiments.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";
const mail = startFakeMail();
/** Visitors' addresses come from x-forwarded-for (one trusted hop). */
const env = { TRUSTED_PROXY_HOPS: "1" };

async function setUp(app: TestApp, guardrails: Record<string, unknown> | null) {
  let broken = false;
  const up = startUpstream();
  up.route("/posts/1", () => Response.json({ title: "hello", body: "keep" }));
  up.route("/posts/fail", () => new Response("down", { status: 503 }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: up.url });
  await activeRule(owner, slug, {
    presetId: "rewrite_tone",
    fieldSelector: "title",
    tone: "casual",
    profile: "casual",
  });
  const base = `/api/tenants/${slug}/ai-experiments`;
  const c = await owner.post(base, {
    name: "Tone",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
    ...(guardrails ? { guardrails } : {}),
  });
  assertEquals(c.status, 201, c.text);
  const a = await owner.patch(`${base}/${c.body.id}`, { status: "active" });
  assertEquals(a.status, 200, a.text);
  const anon = new Client(app);
  const snap = (await readSnapshot(app.services.kv, slug))!;
  // Each visitor its own address and agent (guardrails count visitors, a few per network);
  // "broken" fails the variant's visitors only: control's answers stay fine.
  const ip = (i: number) => `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const ua = (i: number) => `${CHROME} visitor/${i}`;
  const get = (i: number) => {
    const arm = assignExperiment(snap, "/posts/1", ip(i), ua(i))?.variantKey;
    const path = broken && arm === "casual" ? "/posts/fail" : "/posts/1";
    return anon.get(`http://${slug}.localhost:8000/~api${path}?i=${i}`, {
      "user-agent": ua(i),
      "x-forwarded-for": ip(i),
    });
  };
  return {
    up,
    owner,
    slug,
    e: a.body,
    get,
    path: `${base}/${c.body.id}`,
    breakUpstream: () => broken = true,
    fixUpstream: () => broken = false,
  };
}

// ---- the 5xx stop, end to end, in fake time ----

aiTest(
  "a variant whose answers turn 5xx is stopped within 60 s: control for all, audit, mail, banner",
  async (app) => {
    const t = await setUp(app, { maxErrorRate: 0.05 });
    try {
      mail.clear();
      const t0 = app.clock.now();
      t.breakUpstream();
      let failed = 0;
      for (let i = 0; i < 300; i++) if ((await t.get(i)).status >= 500) failed++;
      assert(failed >= 100 && failed <= 200, `${failed} of 300 visitors got a 5xx`);
      // Worst case: the records wait one flush interval, the breach one guardrail interval.
      const { usage, guardrailCheckIntervalMs } = app.services.config;
      app.clock.advance(usage.flushIntervalMs);
      await app.flush();
      const ex = await t.owner.get(`${t.path}/exposures`);
      const casual = ex.body.variants.find((v: any) => v.variantKey === "casual");
      assert(casual.exposures >= 100, `casual got ${casual.exposures}`);
      assertEquals([casual.errorCount, casual.errorRate], [casual.exposures, 100]);
      assert(casual.p95Ms === null || casual.p95Ms > 0);

      app.clock.advance(guardrailCheckIntervalMs);
      assertEquals(await checkGuardrails(app.services), [t.e.id]);
      const e = (await t.owner.get(t.path)).body;
      assertEquals(e.status, "stopped");
      assert(e.stopReason.includes("maxErrorRate"), e.stopReason);
      assert(e.stopReason.includes("variant casual"), e.stopReason);
      const took = Date.parse(e.stoppedAt) - t0;
      assert(took <= 60_000, `stopped ${took} ms after the 5xx began`);
      console.log(`5xx variant stopped ${took / 1000} s (fake time) after its answers turned 5xx`);

      // All traffic to control: the experiment left the snapshot; no visitor is split.
      assertEquals((await readSnapshot(app.services.kv, t.slug))!.experiments ?? [], []);
      const after = await t.get(1000);
      assertEquals(after.headers.get("x-cachely-variant-key"), null);
      // A second pass (another instance) finds nothing to stop.
      assertEquals(await checkGuardrails(app.services), []);

      const audit = await t.owner.get(`/api/tenants/${t.slug}/audit-events`);
      const stops = audit.body.events.filter((x: any) => x.action === "experiment.stopped");
      assertEquals(stops.length, 1);
      assertEquals(stops[0].actorUserId, null);
      assertEquals(mail.sent.length, 1, "the owner is mailed once");
      assert(mail.sent[0].subject.includes("stopped itself"));
      assert(mail.sent[0].text.includes("maxErrorRate"));
      const page = await t.owner.get(`/dashboard/${t.slug}/experiments`);
      assert(page.text.includes("maxErrorRate"), "the banner gives the reason");

      // Fixed and restarted: only what follows counts, so the old 5xx do not stop it again.
      t.fixUpstream();
      const again = await t.owner.patch(t.path, { status: "active" });
      assertEquals([again.status, again.body.stopReason], [200, null]);
      for (let i = 0; i < 200; i++) assertEquals((await t.get(2000 + i)).status, 200);
      await app.flush();
      assertEquals(await checkGuardrails(app.services), []);
      assertEquals((await t.owner.get(t.path)).body.status, "active");
    } finally {
      await t.up.close();
    }
  },
  { env: { ...env, MAIL_TRANSPORT_URL: mail.url } },
);

aiTest("two instances looking at once stop an experiment once", async (app) => {
  const t = await setUp(app, { maxErrorRate: 0.05 });
  try {
    t.breakUpstream();
    for (let i = 0; i < 300; i++) await t.get(i);
    await app.flush();
    const [a, b] = await Promise.all([
      checkGuardrails(app.services),
      checkGuardrails(app.services),
    ]);
    assertEquals([...a, ...b], [t.e.id]);
    const audit = await t.owner.get(`/api/tenants/${t.slug}/audit-events`);
    assertEquals(
      audit.body.events.filter((x: any) => x.action === "experiment.stopped").length,
      1,
    );
  } finally {
    await t.up.close();
  }
}, { env });

aiTest("healthy traffic is not stopped; an experiment without guardrails never is", async (app) => {
  const t = await setUp(app, { maxErrorRate: 0.05, maxP95Ms: 5000 });
  try {
    for (let i = 0; i < 300; i++) assertEquals((await t.get(i)).status, 200);
    await app.flush();
    assertEquals(await checkGuardrails(app.services), []);
    assertEquals((await t.owner.get(t.path)).body.status, "active");
  } finally {
    await t.up.close();
  }
}, { env });

// ---- promote winner ----

aiTest("promote winner: the variant's profile is what everyone on the route gets", async (app) => {
  const t = await setUp(app, null);
  try {
    const [control, casual] = t.e.variants;
    const tid = (await readSnapshot(app.services.kv, t.slug))!.tenantId;
    const seed = async (v: any, exposures: number, events: number) => {
      await app.services.dbHandle.exec(
        `INSERT INTO exposure_counts (tenant_id, experiment_id, variant_id, variant_key, exposures)
         VALUES (${tid}, ${t.e.id}, ${v.id}, '${v.key}', ${exposures})
         ON CONFLICT (experiment_id, variant_id, variant_key)
         DO UPDATE SET exposures = exposure_counts.exposures + excluded.exposures;
         INSERT INTO experiment_events (tenant_id, experiment_id, variant_id, variant_key, event_name)
         SELECT ${tid}, ${t.e.id}, ${v.id}, '${v.key}', 'homepage_hero_cta_click'
         FROM generate_series(1, ${events})`,
      );
    };
    await seed(control, 20_000, 1_000);
    await seed(casual, 20_000, 1_050);
    const early = await t.owner.post(`${t.path}/promote`, { variantId: casual.id });
    assertEquals(early.status, 409, "5 % vs 5.25 %: no winner yet");
    assert(early.body.error.message.includes("keep_running"));
    await seed(casual, 0, 300); // 5 % vs 6.75 %
    const ex = await t.owner.get(`${t.path}/exposures`);
    assertEquals(ex.body.variants[1].sequential.verdict, "variant_wins");

    assertEquals((await t.owner.post(`${t.path}/promote`, { variantId: control.id })).status, 400);
    assertEquals((await t.owner.post(`${t.path}/promote`, { variantId: 999999 })).status, 404);
    const stranger = await signUp(app);
    const other = await createTenant(stranger);
    const theirs = await stranger.post(
      `/api/tenants/${other}/ai-experiments/${t.e.id}/promote`,
      { variantId: casual.id },
    );
    assertEquals(theirs.status, 404);

    const p = await t.owner.post(`${t.path}/promote`, { variantId: casual.id });
    assertEquals(p.status, 200, p.text);
    assertEquals([p.body.status, p.body.promotedVariantId], ["promoted", casual.id]);
    const snap = await readSnapshot(app.services.kv, t.slug);
    assertEquals(snap!.experiments![0].variants.map((v: any) => v.key), ["casual"]);
    for (let i = 0; i < 10; i++) {
      const r = await t.get(i);
      assertEquals(r.headers.get("x-cachely-variant-key"), "casual");
      assertEquals(r.headers.get("x-cachely-experiment-profile"), "casual");
    }
    assertEquals((await t.owner.post(`${t.path}/promote`, { variantId: casual.id })).status, 409);
    const back = await t.owner.patch(t.path, { status: "active" });
    assertEquals(back.status, 409, "a promoted experiment can only be archived");
  } finally {
    await t.up.close();
  }
}, { env });

// ---- bad input ----

aiTest("guardrails out of range are a 400 naming the field", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const base = `/api/tenants/${slug}/ai-experiments`;
  const variants = [{ key: "control" }, { key: "b", transformProfile: "b" }];
  const cases: [Record<string, unknown>, string][] = [
    [{ maxErrorRate: 1.5 }, "guardrails.maxErrorRate"],
    [{ maxErrorRate: -0.1 }, "guardrails.maxErrorRate"],
    [{ maxP95Ms: 0 }, "guardrails.maxP95Ms"],
    [{ maxP95Ms: 12.5 }, "guardrails.maxP95Ms"],
    [{ minConversionRate: 2 }, "guardrails.minConversionRate"],
    [{ maxErrorRate: "5%" }, "guardrails.maxErrorRate"],
    [{ latency: 3 }, "guardrails"],
  ];
  for (const [g, field] of cases) {
    const r = await owner.post(base, { name: "x", variants, guardrails: g });
    assertEquals(r.status, 400, JSON.stringify(g));
    assert(r.body.error.message.includes(field), `${r.body.error.message} names ${field}`);
  }
  const ok = await owner.post(base, { name: "x", variants, guardrails: { maxP95Ms: 800 } });
  assertEquals(ok.status, 201, ok.text);
  assertEquals(ok.body.guardrails, { maxP95Ms: 800 });
  const bad = await owner.patch(`${base}/${ok.body.id}`, { guardrails: { minConversionRate: -1 } });
  assertEquals(bad.status, 400);
  assert(bad.body.error.message.includes("guardrails.minConversionRate"));
  const cleared = await owner.patch(`${base}/${ok.body.id}`, { guardrails: null });
  assertEquals(cleared.body.guardrails, null);
});

// ---- the checks themselves (pure) ----

Deno.test("findBreach: variant against control, margin, minimum sample, threshold", () => {
  const arm = (over: Record<string, unknown>) => ({
    variantKey: "v",
    control: false,
    visitors: 1000,
    errored: 0,
    slow: 0,
    converted: 100,
    ...over,
  });
  const control = (over: Record<string, unknown> = {}) =>
    arm({ variantKey: "control", control: true, ...over });
  const g = { maxErrorRate: 0.05 };
  assertEquals(findBreach(g, [control(), arm({ errored: 100 })])?.metric, "maxErrorRate");
  assertEquals(findBreach(g, [control(), arm({ errored: 60 })]), null, "6 %: not sure");
  // An outage both arms see: 97 % against 96 %, within the margin of what control sees.
  assertEquals(findBreach(g, [control({ errored: 960 }), arm({ errored: 970 })]), null);
  assertEquals(findBreach(g, [control({ errored: 1000 }), arm({ errored: 800 })]), null);
  // Worse than control, but not beyond the threshold; or not by the margin.
  assertEquals(findBreach({ maxErrorRate: 0.5 }, [control(), arm({ errored: 300 })]), null);
  assertEquals(
    findBreach({ maxErrorRate: 0.05, margin: 0.3 }, [control(), arm({ errored: 300 })]),
    null,
  );
  // Too few visitors in either arm, or no control: no verdict.
  assertEquals(findBreach(g, [control(), arm({ visitors: 50, errored: 50 })]), null);
  assertEquals(findBreach(g, [control({ visitors: 50 }), arm({ errored: 1000 })]), null);
  assertEquals(findBreach(g, [arm({ errored: 1000 })]), null);
  assertEquals(
    findBreach({ ...g, minVisitors: 2000 }, [control(), arm({ errored: 1000 })]),
    null,
  );
  assertEquals(findBreach({ maxP95Ms: 1000 }, [control(), arm({ slow: 300 })])?.metric, "maxP95Ms");
  assertEquals(findBreach({ maxP95Ms: 1000 }, [control({ slow: 300 }), arm({ slow: 300 })]), null);
  const conv = { minConversionRate: 0.2 };
  assertEquals(
    findBreach(conv, [control({ converted: 300 }), arm({ converted: 100 })])?.metric,
    "minConversionRate",
  );
  assertEquals(findBreach(conv, [control({ converted: 100 }), arm({ converted: 100 })]), null);
  assertEquals(
    findBreach({ minConversionRate: 0.05 }, [control({ converted: 300 }), arm({})]),
    null,
  );
});

Deno.test("the default intervals bound a stop to 60 s", () => {
  const c = loadConfig({
    ENCRYPTION_KEY: btoa("0123456789abcdef0123456789abcdef"),
    PUBLIC_URL: "http://localhost:8000",
    PROXY_DOMAIN: "localhost:8000",
  });
  assert(c.usage.flushIntervalMs + c.guardrailCheckIntervalMs <= 60_000);
});
