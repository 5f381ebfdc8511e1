// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Outsiders cannot steer guardrails: real visitors (each its own IP and user agent, through
 * the edge, converting at 10 % on both arms) plus an attacker who probes user agents until
 * the edge says `casual`, then sends no conversions, or failing requests from many agents.
 * Neither stops the experiment, nor does an origin-wide outage both arms see; a variant
 * whose own visitors get 5xx still stops within 60 s (fake time), and its mail subject stays
 * on one line though the experiment's name has CR/LF; one whose visitors stop converting
 * (conversions matched to the edge's visitor by IP and user agent) stops too.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, signUp, type TestApp } from "./harness.ts";
import { activeRule, aiTest } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { checkGuardrails } from "../lib/experiments/guardrail_loop.ts";
import { assignExperiment } from "../edge/experiments.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";
const GOAL = "homepage_hero_cta_click";
/** Real visitors: about 130 per arm. */
const VISITORS = 260;
const ATTACKER_IP = "192.0.2.66";
const mail = startFakeMail();
const env = { TRUSTED_PROXY_HOPS: "1", MAIL_TRANSPORT_URL: mail.url };

const ipOf = (i: number) => `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
const uaOf = (i: number) => `${CHROME} visitor/${i}`;

async function world(app: TestApp, guardrails: Record<string, unknown>, name = "Tone") {
  const up = startUpstream();
  up.route("/posts/ok", () => Response.json({ title: "hello", body: "keep" }));
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
    name,
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
    guardrails,
  });
  assertEquals(c.status, 201, c.text);
  const a = await owner.patch(`${base}/${c.body.id}`, { status: "active" });
  assertEquals(a.status, 200, a.text);
  const e = a.body;
  const snap = (await readSnapshot(app.services.kv, slug))!;
  const anon = new Client(app);
  const visit = (path: string, ip: string, ua: string) =>
    anon.get(`http://${slug}.localhost:8000/~api${path}`, {
      "user-agent": ua,
      "x-forwarded-for": ip,
    });
  const convert = (ip: string, ua: string, key: string) =>
    anon.post("/api/ai-experiments/events", {
      tenantSlug: slug,
      experimentId: e.id,
      variantId: e.variants.find((v: any) => v.key === key).id,
      variantKey: key,
      eventName: GOAL,
    }, { "user-agent": ua, "x-forwarded-for": ip });
  /** The arm the edge gives visitor i (as a visitor learns it, without a request). */
  const armOf = (i: number) => assignExperiment(snap, "/posts/ok", ipOf(i), uaOf(i))!.variantKey;
  return {
    up,
    owner,
    slug,
    e,
    path: `${base}/${c.body.id}`,
    visit,
    /** Real visitors `from`…: one GET each (path by `fails`), 1 in 10 converts by default. */
    async traffic(
      fails: (i: number, arm: string) => boolean,
      from = 0,
      converts = (i: number, _arm: string) => i % 10 === 0,
    ) {
      const arms: Record<string, number> = {};
      for (let i = from; i < from + VISITORS; i++) {
        const arm = armOf(i);
        arms[arm] = (arms[arm] ?? 0) + 1;
        const fail = fails(i, arm);
        const r = await visit(fail ? "/posts/fail" : "/posts/ok", ipOf(i), uaOf(i));
        // (an upstream failure is answered without the experiment's headers)
        if (fail) assert(r.status >= 500, `status ${r.status}`);
        else assertEquals(r.headers.get("x-cachely-variant-key"), arm);
        if (converts(i, arm)) assertEquals((await convert(ipOf(i), uaOf(i), arm)).status, 200);
      }
      return arms;
    },
    /** The attacker's user agents the edge answers with `casual`, found by trying. */
    async probe(wanted: number): Promise<string[]> {
      const found: string[] = [];
      for (let k = 0; found.length < wanted && k < 10 * wanted + 20; k++) {
        const ua = `${CHROME} evil/${k}`;
        const r = await visit("/posts/ok", ATTACKER_IP, ua);
        if (r.headers.get("x-cachely-variant-key") === "casual") found.push(ua);
      }
      assertEquals(found.length, wanted);
      return found;
    },
    /**
     * Address and agent pairs of one IPv6 /64 the edge gives `casual`, worked out offline as
     * anyone can (the assignment hash and the experiment's id are public), so no GET lands on
     * control.
     */
    casualPairs(wanted: number): [string, string][] {
      const found: [string, string][] = [];
      for (let k = 1; found.length < wanted; k++) {
        const pair: [string, string] = [`2001:db8:66:1::${k.toString(16)}`, `${CHROME} evil/${k}`];
        if (assignExperiment(snap, "/posts/ok", ...pair)!.variantKey === "casual") found.push(pair);
      }
      return found;
    },
  };
}

/** One flush and one guardrail pass, in fake time; answers the experiment after them. */
async function judge(app: TestApp, t: { owner: Client; path: string }) {
  app.clock.advance(app.services.config.usage.flushIntervalMs);
  await app.flush();
  app.clock.advance(app.services.config.guardrailCheckIntervalMs);
  const stopped = await checkGuardrails(app.services);
  return { stopped, e: (await t.owner.get(t.path)).body };
}

aiTest(
  "300 GETs without a conversion from one visitor on the variant stop nothing",
  async (app) => {
    const t = await world(app, { minConversionRate: 0.08 });
    try {
      const arms = await t.traffic(() => false);
      const [ua] = await t.probe(1);
      for (let i = 0; i < 300; i++) {
        const r = await t.visit(`/posts/ok`, ATTACKER_IP, ua);
        assertEquals(r.headers.get("x-cachely-variant-key"), "casual");
      }
      const { stopped, e } = await judge(app, t);
      assertEquals([stopped, e.status, e.stopReason], [[], "active", null], JSON.stringify(arms));
    } finally {
      await t.up.close();
    }
  },
  { env },
);

aiTest(
  "300 visitors of one /64 on the variant, each a new address and agent, converting never: nothing stops",
  async (app) => {
    // Real visitors convert at 50 % on both arms: 300 more on the variant converting never
    // would take it to about 15 %, a certain breach, if each counted.
    const t = await world(app, { minConversionRate: 0.4 });
    try {
      const arms = await t.traffic(() => false, 0, (i) => i % 10 < 5);
      // Each GET a new address of the /64 and a new agent, every one answered `casual`.
      for (const pair of t.casualPairs(300)) {
        const r = await t.visit("/posts/ok", ...pair);
        assertEquals(r.headers.get("x-cachely-variant-key"), "casual");
      }
      const { stopped, e } = await judge(app, t);
      assertEquals([stopped, e.status, e.stopReason], [[], "active", null], JSON.stringify(arms));
    } finally {
      await t.up.close();
    }
  },
  { env },
);

aiTest(
  "200 failing GETs from 50 user agents the variant got stop nothing",
  async (app) => {
    const t = await world(app, { maxErrorRate: 0.05 });
    try {
      await t.traffic(() => false);
      const agents = await t.probe(50);
      for (let i = 0; i < 200; i++) {
        const r = await t.visit(`/posts/fail?i=${i}`, ATTACKER_IP, agents[i % agents.length]);
        assert(r.status >= 500, `status ${r.status}`);
      }
      const { stopped, e } = await judge(app, t);
      assertEquals([stopped, e.status, e.stopReason], [[], "active", null]);
    } finally {
      await t.up.close();
    }
  },
  { env },
);

aiTest(
  "200 failing GETs from 200 addresses of one /64 and agents the variant got stop nothing",
  async (app) => {
    const t = await world(app, { maxErrorRate: 0.05 });
    try {
      await t.traffic(() => false);
      for (const [i, pair] of t.casualPairs(200).entries()) {
        const r = await t.visit(`/posts/fail?i=${i}`, ...pair);
        assert(r.status >= 500, `status ${r.status}`);
      }
      const { stopped, e } = await judge(app, t);
      assertEquals([stopped, e.status, e.stopReason], [[], "active", null]);
    } finally {
      await t.up.close();
    }
  },
  { env },
);

aiTest("an origin-wide outage both arms see never stops the variant", async (app) => {
  const t = await world(app, { maxErrorRate: 0.05 });
  try {
    // Every other visitor's answer is a 5xx, on control as on the variant.
    await t.traffic((i) => i % 2 === 0);
    const ex = (await t.owner.get(`${t.path}/exposures`)).body;
    assertEquals(ex.totalExposures, 0, "not flushed yet");
    const { stopped, e } = await judge(app, t);
    const after = (await t.owner.get(`${t.path}/exposures`)).body;
    const rates = after.variants.map((v: any) => `${v.variantKey} ${v.errorRate.toFixed(1)} %`);
    assertEquals([stopped, e.status], [[], "active"], rates.join(", "));
    console.log(`outage: ${rates.join(", ")} of answers 5xx; not stopped`);
  } finally {
    await t.up.close();
  }
}, { env });

aiTest(
  "a variant whose visitors get 5xx stops within 60 s; the mail subject stays one line",
  async (app) => {
    const t = await world(app, { maxErrorRate: 0.05 }, "Tone\r\nBcc: victim@example.com");
    try {
      mail.clear();
      const t0 = app.clock.now();
      await t.traffic((_i, arm) => arm === "casual");
      const { stopped, e } = await judge(app, t);
      assertEquals([stopped, e.status], [[t.e.id], "stopped"]);
      assert(e.stopReason.includes("maxErrorRate"), e.stopReason);
      assert(e.stopReason.includes("on control"), e.stopReason);
      const took = Date.parse(e.stoppedAt) - t0;
      assert(took <= 60_000, `stopped ${took} ms after its visitors' answers turned 5xx`);
      console.log(`failing variant stopped ${took / 1000} s (fake time) after its 5xx began`);
      assertEquals(mail.sent.length, 1, "the owner is mailed once");
      assert(!/[\r\n]/.test(mail.sent[0].subject), JSON.stringify(mail.sent[0].subject));
      assert(mail.sent[0].subject.includes("Tone Bcc: victim@example.com"));

      // Fixed and restarted by way of draft: only visitors from now on count, so the old 5xx
      // stop nothing.
      assertEquals((await t.owner.patch(t.path, { status: "draft" })).status, 200);
      const again = await t.owner.patch(t.path, { status: "active" });
      assertEquals([again.status, again.body.stopReason], [200, null]);
      app.clock.advance(1000);
      await t.traffic(() => false, VISITORS);
      const after = await judge(app, t);
      assertEquals([after.stopped, after.e.status], [[], "active"]);
    } finally {
      await t.up.close();
    }
  },
  { env },
);

aiTest("a variant whose visitors stop converting is stopped against control", async (app) => {
  const t = await world(app, { minConversionRate: 0.05 });
  try {
    // Control's visitors convert at about 30 %, the variant's never.
    await t.traffic(() => false, 0, (i, arm) => arm === "control" && i % 10 < 3);
    const { stopped, e } = await judge(app, t);
    assertEquals([stopped, e.status], [[t.e.id], "stopped"]);
    assert(e.stopReason.includes("minConversionRate"), e.stopReason);
    console.log(`conversion guardrail: ${e.stopReason}`);
  } finally {
    await t.up.close();
  }
}, { env });
