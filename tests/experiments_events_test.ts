// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { APP_ORIGIN, dbTest, type TestApp } from "./harness.ts";
import { activeExperiment, createExperiment, team } from "./experiments_helpers.ts";

const EVENTS = `${APP_ORIGIN}/api/ai-experiments/events`;

/** Posts like a browser from `ip` (the connection address), with no session. */
async function post(
  app: TestApp,
  body: unknown,
  ip = "198.51.100.7",
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await app.handler(
    new Request(EVENTS, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "https://www.example.com",
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { remoteAddr: { transport: "tcp", hostname: ip, port: 50000 }, completed: Promise.resolve() },
  );
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* keep text */ }
  return { status: res.status, headers: res.headers, body: parsed };
}

async function setUp(app: TestApp) {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  const [control, casual] = e.variants;
  const event = (over: Record<string, unknown> = {}): Record<string, any> => ({
    tenantSlug: t.slug,
    experimentId: e.id,
    variantId: casual.id,
    variantKey: casual.key,
    eventName: "homepage_hero_cta_click",
    ...over,
  });
  return { t, e, control, casual, event };
}

async function countEvents(app: TestApp, experimentId: number): Promise<number> {
  const rows = await app.services.dbHandle.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM experiment_events WHERE experiment_id = ${experimentId}`,
  );
  return rows[0].n;
}

// ---- happy ----

dbTest(
  "POST /api/ai-experiments/events stores one event per call and returns its id",
  async (app) => {
    const { e, casual, event } = await setUp(app);
    const full = event({
      visitorId: "v-1",
      sessionId: "s-1",
      url: "https://www.example.com/?utm=1",
      referrer: "https://search.example/",
      metadata: { plan: "pro", n: 2, nested: { ok: true } },
    });
    const a = await post(app, full);
    assertEquals(a.status, 200);
    assertEquals(a.body.ok, true);
    assert(Number.isInteger(a.body.id) && a.body.id > 0);
    assertEquals(a.headers.get("access-control-allow-origin"), "*");
    const b = await post(app, full);
    assertEquals(b.status, 200);
    assert(b.body.id !== a.body.id, "no deduplication: a second identical call is a second row");
    const rows = await app.services.dbHandle.query<any>(
      `SELECT * FROM experiment_events WHERE id = ${a.body.id}`,
    );
    assertEquals(rows.length, 1);
    const r = rows[0];
    assertEquals(
      [r.experiment_id, r.variant_id, r.variant_key, r.event_name, r.visitor_id, r.session_id],
      [e.id, casual.id, "casual", "homepage_hero_cta_click", "v-1", "s-1"],
    );
    assertEquals([r.url, r.referrer], [
      "https://www.example.com/?utm=1",
      "https://search.example/",
    ]);
    assertEquals(r.metadata, { plan: "pro", n: 2, nested: { ok: true } });
    assertEquals(await countEvents(app, e.id), 2);
  },
);

dbTest(
  "POST events accepts fields at their limits, text/plain bodies and unknown fields",
  async (app) => {
    const { event } = await setUp(app);
    const atLimit = event({
      eventName: "a".repeat(80),
      visitorId: "v".repeat(200),
      sessionId: "s".repeat(200),
      url: "u".repeat(2048),
      referrer: "r".repeat(2048),
      // {"k":"…"} is 8 bytes of framing: 4088 + 8 = 4096 exactly.
      metadata: { k: "x".repeat(4088) },
      futureField: 1,
    });
    assertEquals(JSON.stringify(atLimit.metadata).length, 4096);
    assertEquals((await post(app, atLimit)).status, 200);
    const plain = await post(app, event(), "198.51.100.7", { "content-type": "text/plain" });
    assertEquals(plain.status, 200, "a CORS simple request (no preflight) works too");
    assertEquals((await post(app, event({ visitorId: null, metadata: null }))).status, 200);
  },
);

dbTest("POST events is accepted for a draft experiment", async (app) => {
  const { t, e, event } = await setUp(app);
  await t.owner.patch(`/api/tenants/${t.slug}/ai-experiments/${e.id}`, { status: "draft" });
  assertEquals((await post(app, event())).status, 200);
});

dbTest("OPTIONS /api/ai-experiments/events answers the preflight exactly per SPEC", async (app) => {
  const res = await app.handler(
    new Request(EVENTS, {
      method: "OPTIONS",
      headers: {
        origin: "https://www.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-custom-thing",
      },
    }),
  );
  assertEquals(res.status, 204);
  assertEquals(await res.text(), "");
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(res.headers.get("access-control-allow-methods"), "POST, OPTIONS");
  assertEquals(res.headers.get("access-control-allow-headers"), "content-type,x-custom-thing");
  assertEquals(res.headers.get("access-control-max-age"), "86400");
});

// ---- errors ----

dbTest(
  "POST events: unknown tenant or experiment 404; foreign variant and wrong key 400",
  async (app) => {
    const { t, e, control, event } = await setUp(app);
    const other = await createExperiment(t.owner, t.slug, {
      name: "other",
      variants: [{ key: "z" }, { key: "y" }],
    });
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [event({ tenantSlug: "no-such-tenant" }), 404, /^Tenant not found/],
      [event({ experimentId: e.id + 999 }), 404, /^Experiment not found/],
      [event({ variantId: other.variants[0].id }), 400, /^Invalid variantId/],
      [event({ variantId: 2_000_000 }), 400, /^Invalid variantId/],
      [event({ variantKey: "control" }), 400, /^Invalid variantKey/], // casual's id, control's key
      [event({ variantId: control.id, variantKey: "casual" }), 400, /^Invalid variantKey/],
    ];
    for (const [body, status, re] of cases) {
      const r = await post(app, body);
      assertEquals(r.status, status, JSON.stringify(body));
      assertMatch(r.body.error.message, re);
      assertEquals(
        r.headers.get("access-control-allow-origin"),
        "*",
        "errors are readable cross-origin",
      );
    }
    assertEquals(await countEvents(app, e.id), 0);
  },
);

dbTest("POST events for an archived experiment is 400 experiment_archived", async (app) => {
  const { t, e, event } = await setUp(app);
  await t.owner.delete(`/api/tenants/${t.slug}/ai-experiments/${e.id}`);
  const r = await post(app, event());
  assertEquals(r.status, 400);
  assertEquals(r.body.error.code, "experiment_archived");
  assertEquals(await countEvents(app, e.id), 0);
});

dbTest("POST events: every bound, type and body problem is 400, never 500", async (app) => {
  const { e, event } = await setUp(app);
  const bad: unknown[] = [
    event({ eventName: "" }),
    event({ eventName: "a".repeat(81) }),
    event({ eventName: "has space" }),
    event({ eventName: "emoji😀" }),
    event({ eventName: 5 }),
    event({ visitorId: "v".repeat(201) }),
    event({ sessionId: "s".repeat(201) }),
    event({ sessionId: 12 }),
    event({ url: "u".repeat(2049) }),
    event({ referrer: "r".repeat(2049) }),
    event({ metadata: { k: "x".repeat(4089) } }),
    event({ metadata: { k: "é".repeat(2045) } }), // 4090 bytes of UTF-8 in 2045 chars
    event({ metadata: [1, 2] }),
    event({ metadata: "str" }),
    event({ experimentId: "1" }),
    event({ experimentId: 0 }),
    event({ experimentId: -3 }),
    event({ experimentId: 1.5 }),
    event({ experimentId: 1e300 }),
    event({ variantId: null }),
    event({ variantKey: "" }),
    event({ tenantSlug: 7 }),
    { eventName: "x" },
    [],
    "null",
    "42",
    "{not json",
    "",
    JSON.stringify(event({ pad: "p".repeat(20_000) })),
  ];
  for (const body of bad) {
    const r = await post(app, typeof body === "string" ? body : JSON.stringify(body));
    assertEquals(r.status, 400, String(JSON.stringify(body)).slice(0, 120));
    assert(typeof r.body.error?.message === "string");
  }
  assertEquals(await countEvents(app, e.id), 0);
});

// ---- security: rate limit and IP handling ----

dbTest(
  "100 concurrent posts from one IP: exactly 60 stored, 40 × 429 with Retry-After",
  async (app) => {
    const { e, event } = await setUp(app);
    const results = await Promise.all(
      Array.from(
        { length: 100 },
        (_, i) => post(app, event({ visitorId: `v${i}` }), "203.0.113.5"),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    assertEquals(ok.length, 60);
    assertEquals(limited.length, 40);
    for (const r of limited) {
      const ra = Number(r.headers.get("retry-after"));
      assert(Number.isInteger(ra) && ra >= 1 && ra <= 60, `Retry-After ${ra}`);
      assertEquals(r.headers.get("access-control-allow-origin"), "*");
    }
    assertEquals(new Set(ok.map((r) => r.body.id)).size, 60, "every accepted event has its own id");
    assertEquals(await countEvents(app, e.id), 60);

    // Another IP has its own quota; so does the same IP for another tenant.
    assertEquals((await post(app, event(), "203.0.113.6")).status, 200);
    const other = await setUp(app);
    assertEquals((await post(app, other.event(), "203.0.113.5")).status, 200);
    // Forwarding headers are not trusted unless configured: no way around the limit.
    const spoofed = await post(app, event(), "203.0.113.5", { "x-forwarded-for": "192.0.2.1" });
    assertEquals(spoofed.status, 429);
    // The window is one minute.
    app.clock.advance(60_000);
    assertEquals((await post(app, event(), "203.0.113.5")).status, 200);
  },
);

dbTest("behind a trusted proxy the limit keys on the address it added", async (app) => {
  const { event } = await setUp(app);
  for (let i = 0; i < 60; i++) {
    const r = await post(app, event(), "10.0.0.1", { "x-forwarded-for": "192.0.2.1" });
    assertEquals(r.status, 200);
  }
  const limited = await post(app, event(), "10.0.0.1", { "x-forwarded-for": "192.0.2.1" });
  assertEquals(limited.status, 429);
  const otherClient = await post(app, event(), "10.0.0.1", { "x-forwarded-for": "192.0.2.2" });
  assertEquals(otherClient.status, 200, "same proxy, different client");
}, { env: { TRUSTED_PROXY_IP_HEADER: "x-forwarded-for", TRUSTED_PROXY_HOPS: "1" } });

dbTest("a forged leftmost X-Forwarded-For entry does not escape the limit", async (app) => {
  const { event } = await setUp(app);
  const statuses: number[] = [];
  for (let i = 0; i < 70; i++) {
    // The client sends its own X-Forwarded-For; the proxy appends the real address.
    const xff = `198.51.100.${i}, 192.0.2.1`;
    statuses.push((await post(app, event(), "10.0.0.1", { "x-forwarded-for": xff })).status);
  }
  assertEquals(statuses.filter((s) => s === 200).length, 60);
  assertEquals(statuses.at(-1), 429);
  // A forged entry that is not an IP never becomes a key of its own either.
  const junk = await post(app, event(), "10.0.0.1", { "x-forwarded-for": "1.1.1.1, not-an-ip" });
  assertEquals(junk.status, 200, "falls back to the connection's address, a fresh key");
}, { env: { TRUSTED_PROXY_HOPS: "1" } });

dbTest("70 addresses of one IPv6 /64 share one client's limit", async (app) => {
  const { event } = await setUp(app);
  const statuses: number[] = [];
  for (let i = 1; i <= 70; i++) {
    statuses.push((await post(app, event(), `2001:db8:9:9::${i.toString(16)}`)).status);
  }
  assertEquals(statuses.filter((s) => s === 200).length, 60);
  assertEquals(statuses.at(-1), 429);
  assertEquals((await post(app, event(), "2001:db8:9:a::1")).status, 200, "another /64");
});

dbTest("a session cookie never turns the public endpoint into a CSRF failure", async (app) => {
  const { t, event } = await setUp(app);
  const cookie = [...t.owner.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const r = await post(app, event(), "198.51.100.7", { cookie });
  assertEquals(r.status, 200);
});

// ---- security: NUL ----

dbTest("POST events: U+0000 in any string or metadata is 400 naming the field", async (app) => {
  const { e, event } = await setUp(app);
  const cases: Array<[Record<string, unknown>, string]> = [
    [event({ visitorId: "v\u0000" }), "visitorId"],
    [event({ sessionId: "\u0000" }), "sessionId"],
    [event({ url: "https://x.example/\u0000" }), "url"],
    [event({ referrer: "\u0000" }), "referrer"],
    [event({ tenantSlug: "acme\u0000" }), "tenantSlug"],
    [event({ metadata: { plan: "pro\u0000" } }), "metadata.plan"],
    [event({ metadata: { "k\u0000": 1 } }), "metadata.k\u0000"],
    [event({ metadata: { deep: [{ x: "\u0000" }] } }), "metadata.deep.0.x"],
  ];
  for (const [body, field] of cases) {
    const r = await post(app, body);
    assertEquals(r.status, 400, field);
    assertEquals(r.body.error.details.fields[0].path, field);
    assertMatch(r.body.error.message, /NUL/);
  }
  // A NUL as a JSON escape deep in a huge nesting is found without a stack overflow.
  const deep = "[".repeat(50_000) + '"\\u0000"' + "]".repeat(50_000);
  assertEquals((await post(app, `{"tenantSlug":"a","metadata":{"x":${deep}}}`)).status, 400);
  assertEquals(await countEvents(app, e.id), 0);
});
