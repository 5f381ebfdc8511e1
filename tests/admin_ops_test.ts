import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import {
  APP_ORIGIN,
  Client,
  createTenant,
  createTestApp,
  dbTest,
  signUp,
  tenantIdOf,
  type TestApp,
} from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { ManualClock } from "../lib/clock.ts";

const ROOT = "root@example.com";
// ghost@ is an admin email nobody registered: `admins` counts registered users only.
const opts = { env: { ADMIN_EMAILS: `${ROOT},ghost@example.com` } };
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "purple monkey dishwasher";
const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0); // 2026-11-22 12:00 UTC
const OCT = Date.UTC(2026, 9, 10, 9, 0, 0);

/**
 * root (admin), alice (owner of alpha, viewer of beta; alpha was created in October),
 * bob (owner of beta and gamma, blocked), and usage rows around November 2026.
 */
async function world(app: TestApp) {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  const alice = await signUp(app);
  const bob = await signUp(app);
  const rnd = crypto.randomUUID().slice(0, 6);
  app.clock.set(OCT); // sessions made at NOW are still live in October
  const alpha = await createTenant(alice, { slug: `alpha-${rnd}` });
  app.clock.set(NOW);
  const beta = await createTenant(bob, { slug: `beta-${rnd}` });
  const gamma = await createTenant(bob, { slug: `gamma-${rnd}` });
  // alice joins beta as a viewer through the real invite flow.
  const inv = await bob.post(`/api/tenants/${beta}/members/invite`, {
    email: alice.email,
    role: "viewer",
  });
  assertEquals((await alice.post("/api/invites/accept", { token: inv.body.token })).status, 200);
  const [a, b, g] = [
    await tenantIdOf(app, alpha),
    await tenantIdOf(app, beta),
    await tenantIdOf(app, gamma),
  ];
  await seedUsageDays(app, a, [{ day: "2026-10-31", requests: 1000, bytes: 9, misses: 1000 }]);
  await seedUsageDays(app, a, [{
    day: "2026-11-01",
    requests: 100,
    bytes: 1000,
    hits: 60,
    misses: 30,
    stale: 10,
    errors: 2,
  }]);
  await seedUsageDays(app, a, [{ day: "2026-11-30", requests: 5, bytes: 50, hits: 5 }]);
  await seedUsageDays(app, b, [{
    day: "2026-11-15",
    requests: 200,
    bytes: 500,
    hits: 100,
    misses: 50,
    bypass: 50,
    errors: 1,
  }]);
  await seedUsageDays(app, b, [{ day: "2026-12-01", requests: 7, bytes: 70 }]);
  await seedUsageDays(app, g, [{ day: "2026-11-15", requests: 40, bytes: 4000, misses: 40 }]);
  await app.services.dbHandle.exec(
    `INSERT INTO ai_usage_daily (tenant_id, day, input_tokens, output_tokens, model_calls) VALUES
     (${a}, '2026-11-03', 10, 20, 2), (${g}, '2026-11-30', 1, 2, 1), (${b}, '2026-10-31', 500, 500, 50)`,
  );
  assertEquals(
    (await root.post(`/api/admin/users/${bob.userId}/block`, { blocked: true })).status,
    200,
  );
  return { root, alice, bob, alpha, beta, gamma };
}

// ---- overview ----

dbTest("GET /api/admin/overview sums users, tenants, usage and AI for the month", async (app) => {
  const { root, alpha, beta, gamma } = await world(app);
  const nov = await root.get("/api/admin/overview");
  assertEquals(nov.status, 200);
  assertEquals(nov.body, {
    period: "2026-11",
    users: { total: 3, blocked: 1, admins: 1 },
    tenants: { total: 3, createdInPeriod: 2 },
    usage: {
      requests: 345,
      bytes: 5550,
      hits: 165,
      misses: 120,
      stale: 10,
      bypass: 50,
      errors: 3,
      cacheHitRatio: 0.5593, // 165 / (165 + 120 + 10)
    },
    ai: { inputTokens: 11, outputTokens: 22, modelCalls: 3 },
    topTenants: [
      { slug: beta, requests: 200, bytes: 500 },
      { slug: alpha, requests: 105, bytes: 1050 },
      { slug: gamma, requests: 40, bytes: 4000 },
    ],
  });
  const oct = await root.get("/api/admin/overview?period=2026-10");
  assertEquals(oct.status, 200);
  assertEquals(oct.body.tenants, { total: 3, createdInPeriod: 1 });
  assertEquals(oct.body.usage.requests, 1000);
  assertEquals(oct.body.usage.cacheHitRatio, 0);
  assertEquals(oct.body.ai, { inputTokens: 500, outputTokens: 500, modelCalls: 50 });
  assertEquals(oct.body.topTenants, [{ slug: alpha, requests: 1000, bytes: 9 }]);
  const empty = await root.get("/api/admin/overview?period=2025-01");
  assertEquals(empty.body.usage.requests, 0);
  assertEquals(empty.body.topTenants, []);
}, opts);

dbTest("overview ranks at most 10 tenants by requests", async (app) => {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  for (let i = 1; i <= 11; i++) {
    const slug = await createTenant(root, { slug: `t${String(i).padStart(2, "0")}-top` });
    await seedUsageDays(app, await tenantIdOf(app, slug), [{
      day: "2026-11-02",
      requests: i,
      bytes: 1,
    }]);
  }
  const r = await root.get("/api/admin/overview");
  assertEquals(r.body.topTenants.length, 10);
  assertEquals(r.body.topTenants[0], { slug: "t11-top", requests: 11, bytes: 1 });
  assertEquals(r.body.topTenants[9], { slug: "t02-top", requests: 2, bytes: 1 });
  assertEquals(r.body.usage.requests, 66);
}, opts);

dbTest("overview: 400 for a bad period or an unknown parameter", async (app) => {
  const root = await signUp(app, ROOT);
  for (const [q, field] of [["period=2026-13", "period"], ["period=nov", "period"], ["x=1", ""]]) {
    const r = await root.get(`/api/admin/overview?${q}`);
    assertEquals(r.status, 400, q);
    assert(r.body.error.message.startsWith(`Invalid ${field}`), r.body.error.message);
  }
  // Range errors name the bound, as on the tenant's bandwidth-daily (one implementation).
  const order = await root.get("/api/admin/bandwidth-daily?from=2026-11-10&to=2026-11-09");
  assertEquals(order.body.error.details.fields[0].path, "from");
  const long = await root.get("/api/admin/bandwidth-daily?from=2025-01-01&to=2026-01-02");
  assertEquals(long.body.error.details.fields[0].path, "to");
}, opts);

// ---- bandwidth-daily ----

dbTest("GET /api/admin/bandwidth-daily: zero-filled days, all tenants or one", async (app) => {
  const { root, beta } = await world(app);
  const def = await root.get("/api/admin/bandwidth-daily");
  assertEquals(def.status, 200);
  assertEquals([def.body.from, def.body.to, def.body.tenant], ["2026-10-24", "2026-11-22", null]);
  assertEquals(def.body.points.length, 30);
  assertEquals(def.body.points[0], { day: "2026-10-24", bytes: 0, requests: 0 });
  const at = (day: string) => def.body.points.find((p: { day: string }) => p.day === day);
  assertEquals(at("2026-10-31"), { day: "2026-10-31", bytes: 9, requests: 1000 });
  assertEquals(at("2026-11-01"), { day: "2026-11-01", bytes: 1000, requests: 100 });
  assertEquals(at("2026-11-15"), { day: "2026-11-15", bytes: 4500, requests: 240 });
  assertEquals(def.body.totals, { bytes: 5509, requests: 1340 });

  const one = await root.get(
    `/api/admin/bandwidth-daily?from=2026-11-14&to=2026-11-16&tenant=${beta}`,
  );
  assertEquals(one.body, {
    from: "2026-11-14",
    to: "2026-11-16",
    tenant: beta,
    points: [
      { day: "2026-11-14", bytes: 0, requests: 0 },
      { day: "2026-11-15", bytes: 500, requests: 200 },
      { day: "2026-11-16", bytes: 0, requests: 0 },
    ],
    totals: { bytes: 500, requests: 200 },
  });
  const edge = await root.get("/api/admin/bandwidth-daily?from=2026-11-30&to=2026-12-01");
  assertEquals(edge.body.points, [
    { day: "2026-11-30", bytes: 50, requests: 5 },
    { day: "2026-12-01", bytes: 70, requests: 7 },
  ]);
  // One bound: `from` alone runs 30 days but not past today; `to` alone goes back 30 days.
  const fromOnly = await root.get("/api/admin/bandwidth-daily?from=2026-11-20");
  assertEquals([fromOnly.body.from, fromOnly.body.to], ["2026-11-20", "2026-11-22"]);
  const toOnly = await root.get("/api/admin/bandwidth-daily?to=2026-11-01");
  assertEquals([toOnly.body.from, toOnly.body.to], ["2026-10-03", "2026-11-01"]);
  const longest = await root.get("/api/admin/bandwidth-daily?from=2025-01-01&to=2026-01-01");
  assertEquals(longest.status, 200);
  assertEquals(longest.body.points.length, 366);
}, opts);

dbTest("bandwidth-daily: 400 naming the field, 404 for an unknown tenant", async (app) => {
  const root = await signUp(app, ROOT);
  const cases: [string, string][] = [
    ["from=2026-02-30", "from"],
    ["from=2026-1-01", "from"],
    ["to=yesterday", "to"],
    ["from=2026-11-10&to=2026-11-09", "range"],
    ["from=2025-01-01&to=2026-01-02", "range"], // 367 days
    ["tenant=", "tenant"],
    ["days=7", ""],
  ];
  for (const [q, field] of cases) {
    const r = await root.get(`/api/admin/bandwidth-daily?${q}`);
    assertEquals(r.status, 400, q);
    assert(r.body.error.message.startsWith(`Invalid ${field}`), r.body.error.message);
  }
  const r = await root.get("/api/admin/bandwidth-daily?tenant=no-such-tenant");
  assertEquals(r.status, 404);
  assertEquals(r.body.error.code, "not_found");
}, opts);

// ---- prune-logs ----

async function seedLog(app: TestApp, tenantId: number, ts: number, path: string) {
  await app.services.dbHandle.exec(
    `INSERT INTO request_logs (tenant_id, ts, method, path, status)
     VALUES (${tenantId}, '${new Date(ts).toISOString()}', 'GET', '${path}', 200)`,
  );
}

async function logPaths(app: TestApp): Promise<string[]> {
  const rows = await app.services.dbHandle.query<{ path: string }>(
    "SELECT path FROM request_logs ORDER BY path",
  );
  return rows.map((r) => r.path);
}

dbTest(
  "POST /api/admin/prune-logs deletes exactly the logs older than the retention",
  async (app) => {
    app.clock.set(NOW);
    const root = await signUp(app, ROOT);
    const id = await tenantIdOf(app, await createTenant(root));
    await seedLog(app, id, NOW - 31 * DAY, "/a-31d");
    await seedLog(app, id, NOW - 30 * DAY - 1000, "/b-30d-1s");
    await seedLog(app, id, NOW - 30 * DAY + 1000, "/c-30d+1s");
    await seedLog(app, id, NOW - 2 * HOUR, "/d-2h");

    const def = await root.post("/api/admin/prune-logs"); // no body: the repository default (30)
    assertEquals(def.status, 200);
    assertEquals(def.body, {
      ok: true,
      deleted: 2,
      retentionDays: 30,
      before: new Date(NOW - 30 * DAY).toISOString(),
    });
    assertEquals(await logPaths(app), ["/c-30d+1s", "/d-2h"]);

    const again = await root.post("/api/admin/prune-logs", {});
    assertEquals(again.body.deleted, 0);

    const one = await root.post("/api/admin/prune-logs", { retentionDays: 1 });
    assertEquals(one.body.deleted, 1);
    assertEquals(one.body.before, new Date(NOW - DAY).toISOString());
    assertEquals(await logPaths(app), ["/d-2h"]);

    app.clock.advance(DAY); // the app clock, not the wall clock, decides what is old
    assertEquals((await root.post("/api/admin/prune-logs", { retentionDays: 1 })).body.deleted, 1);
    assertEquals(await logPaths(app), []);
  },
  opts,
);

dbTest("prune-logs: 400 for a bad retentionDays or body", async (app) => {
  const root = await signUp(app, ROOT);
  for (
    const body of [
      { retentionDays: 0 },
      { retentionDays: 3651 },
      { retentionDays: 1.5 },
      { retentionDays: "30" },
      { retentionDays: null },
      { retentionDays: 30, force: true },
      [],
      "{nope",
    ]
  ) {
    const r = await root.post("/api/admin/prune-logs", body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assert(r.body.error.message.startsWith("Invalid"), r.body.error.message);
  }
  assertEquals((await root.post("/api/admin/prune-logs", { retentionDays: 3650 })).status, 200);
}, opts);

// ---- PATCH users/{userId} ----

dbTest("PATCH /api/admin/users/{userId} edits name and email (lower-cased)", async (app) => {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  const slug = await createTenant(user);
  app.clock.set(NOW + HOUR);
  const base = `/api/admin/users/${user.userId}`;
  const r = await root.patch(base, { name: "  Ada Lovelace ", email: "Ada@Example.COM" });
  assertEquals(r.status, 200);
  assertEquals(r.body.id, user.userId);
  assertEquals(r.body.name, "Ada Lovelace");
  assertEquals(r.body.email, "ada@example.com");
  assertEquals(r.body.tenants, [{ slug, role: "owner" }]);
  assertEquals(r.body.updatedAt, new Date(NOW + HOUR).toISOString());
  assertEquals(r.body, (await root.get(base)).body, "the same view as GET");
  assertEquals((await logIn(app, "ada@example.com")).status, 200, "log-in with the new email");
  assertEquals(
    (await new Client(app).post("/api/auth/login", { email: user.email, password: PASSWORD }))
      .status,
    401,
  );

  const cleared = await root.patch(base, { name: null });
  assertEquals(cleared.body.name, null);
  assertEquals(cleared.body.email, "ada@example.com");
  const same = await root.patch(base, { email: "ada@example.com" });
  assertEquals(same.status, 200, "keeping one's own email is no conflict");
}, opts);

dbTest(
  "PATCH user: 409 for a taken email, 400 for bad bodies, 404 for unknown users",
  async (app) => {
    const root = await signUp(app, ROOT);
    const user = await signUp(app);
    const other = await signUp(app);
    const base = `/api/admin/users/${user.userId}`;
    const taken = await root.patch(base, { email: other.email.toUpperCase() });
    assertEquals(taken.status, 409);
    assertEquals(taken.body.error.code, "conflict");
    assertEquals((await root.get(base)).body.email, user.email, "unchanged");
    const cases: [unknown, string][] = [
      [{}, "(body)"],
      [{ name: "" }, "name"],
      [{ name: 5 }, "name"],
      [{ name: "x".repeat(121) }, "name"],
      [{ email: "nope" }, "email"],
      [{ email: null }, "email"],
      [{ name: "x", blocked: true }, "(body)"],
      [{ isAdmin: true }, "(body)"],
    ];
    for (const [body, field] of cases) {
      const r = await root.patch(base, body);
      assertEquals(r.status, 400, JSON.stringify(body));
      assert(r.body.error.message.startsWith(`Invalid ${field}`), r.body.error.message);
    }
    assertEquals((await root.patch(base, "{nope")).status, 400);
    assertEquals(
      (await root.patch(`/api/admin/users/${crypto.randomUUID()}`, { name: "x" })).status,
      404,
    );
  },
  opts,
);

// ---- users/{userId}/daily ----

dbTest("GET /api/admin/users/{userId}/daily sums the user's tenants per day", async (app) => {
  const { root, alice, alpha, beta } = await world(app);
  const r = await root.get(`/api/admin/users/${alice.userId}/daily`);
  assertEquals(r.status, 200);
  assertEquals(r.body.userId, alice.userId);
  assertEquals(r.body.period, "2026-11");
  assertEquals(r.body.tenants, [alpha, beta], "gamma (bob's only) is not counted");
  assertEquals(r.body.days.length, 30);
  const zero = { requests: 0, bytes: 0, hits: 0, misses: 0, errors: 0 };
  assertEquals(r.body.days[0], {
    day: "2026-11-01",
    requests: 100,
    bytes: 1000,
    hits: 60,
    misses: 30,
    errors: 2,
  });
  assertEquals(r.body.days[1], { day: "2026-11-02", ...zero });
  assertEquals(r.body.days[14], {
    day: "2026-11-15",
    requests: 200,
    bytes: 500,
    hits: 100,
    misses: 50,
    errors: 1,
  });
  assertEquals(r.body.days[29], {
    day: "2026-11-30",
    requests: 5,
    bytes: 50,
    hits: 5,
    misses: 0,
    errors: 0,
  });
  const sum = r.body.days.reduce((n: number, d: { requests: number }) => n + d.requests, 0);
  assertEquals(sum, 305);

  const feb = await root.get(`/api/admin/users/${alice.userId}/daily?period=2026-02`);
  assertEquals(feb.body.days.length, 28);
  assertEquals(feb.body.days[27], { day: "2026-02-28", ...zero });
  const lonely = await signUp(app);
  const none = await root.get(`/api/admin/users/${lonely.userId}/daily?period=2026-10`);
  assertEquals(none.body.tenants, []);
  assertEquals(none.body.days.length, 31);
  assert(none.body.days.every((d: { requests: number }) => d.requests === 0));
}, opts);

dbTest("users/{userId}/daily: 400 for a bad period, 404 for an unknown user", async (app) => {
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  for (const q of ["period=2026-00", "period=26-11", "from=2026-11-01"]) {
    const r = await root.get(`/api/admin/users/${user.userId}/daily?${q}`);
    assertEquals(r.status, 400, q);
    assert(r.body.error.message.startsWith("Invalid"));
  }
  const r = await root.get(`/api/admin/users/${crypto.randomUUID()}/daily`);
  assertEquals(r.status, 404);
}, opts);

// ---- reset-password ----

async function logIn(app: TestApp, email: string, password = PASSWORD) {
  const c = new Client(app);
  const r = await c.post("/api/auth/login", { email, password });
  return Object.assign(c, { status: r.status });
}

const tokenIn = (text: string) => text.match(/cly_pwr_[A-Za-z0-9_-]+/)?.[0] ?? "";

dbTest("reset-password mails a single-use token and ends every session", async (app) => {
  const mail = startFakeMail();
  const mailed = await createTestApp(app.backend, {
    env: { ...opts.env, MAIL_TRANSPORT_URL: mail.url },
    clock: new ManualClock(NOW),
  });
  try {
    const root = await signUp(mailed, ROOT);
    const user = await signUp(mailed);
    mail.clear(); // the sign-ups' verification mails
    const second = await logIn(mailed, user.email);
    assertEquals(second.status, 200);
    const r = await root.post(`/api/admin/users/${user.userId}/reset-password`);
    assertEquals(r.status, 200);
    assertEquals(r.body, {
      ok: true,
      userId: user.userId,
      expiresAt: new Date(NOW + HOUR).toISOString(),
      emailSent: true,
      sessionsEnded: 2,
    });
    assertEquals((await user.get("/api/auth/me")).status, 401, "first session ended");
    assertEquals((await second.get("/api/auth/me")).status, 401, "second session ended");
    assertEquals(mail.sent.length, 1);
    assertEquals(mail.sent[0].to, user.email);
    const token = tokenIn(mail.sent[0].text);
    assert(token.length > 20, "the mail carries the token");
    assert(!r.text.includes(token), "the admin never sees the token");
    assertStringIncludes(mail.sent[0].text, `${APP_ORIGIN}/reset-password?token=${token}`);
    const form = await new Client(mailed).get(`/reset-password?token=${token}`);
    assertEquals(form.status, 200, "the mailed link opens a page with the reset form");
    assertStringIncludes(form.text, "Set new password");
    assertStringIncludes(form.text, "/api/auth/reset-password");

    // A session made after the reset started dies when it completes.
    const between = await logIn(mailed, user.email);
    assertEquals(between.status, 200);
    const anon = new Client(mailed);
    const weak = await anon.post("/api/auth/reset-password", { token, password: "short" });
    assertEquals(weak.status, 400);
    assert(weak.body.error.message.startsWith("Invalid password"));
    const done = await anon.post("/api/auth/reset-password", { token, password: NEW_PASSWORD });
    assertEquals(done.status, 200, "a refused password does not spend the token");
    assertEquals(done.body, { ok: true });
    assertEquals((await between.get("/api/auth/me")).status, 401);
    assertEquals((await logIn(mailed, user.email)).status, 401, "old password refused");
    assertEquals((await logIn(mailed, user.email, NEW_PASSWORD)).status, 200);

    const reused = await anon.post("/api/auth/reset-password", { token, password: PASSWORD });
    assertEquals(reused.status, 400);
    assertEquals(reused.body.error.code, "reset_token_invalid");
  } finally {
    await mailed.close();
    await mail.close();
  }
});

dbTest("reset tokens expire after an hour, and a new reset kills the older token", async (app) => {
  const mail = startFakeMail();
  const clock = new ManualClock(NOW);
  const mailed = await createTestApp(app.backend, {
    env: { ...opts.env, MAIL_TRANSPORT_URL: mail.url },
    clock,
  });
  try {
    const root = await signUp(mailed, ROOT);
    const user = await signUp(mailed);
    mail.clear(); // the sign-ups' verification mails
    const reset = () => root.post(`/api/admin/users/${user.userId}/reset-password`, {});
    const anon = new Client(mailed);
    const complete = (token: string) =>
      anon.post("/api/auth/reset-password", { token, password: NEW_PASSWORD });

    assertEquals((await reset()).status, 200);
    const first = tokenIn(mail.sent[0].text);
    assertEquals((await reset()).body.sessionsEnded, 0, "sessions were already ended");
    const second = tokenIn(mail.sent[1].text);
    assert(first !== second);
    const old = await complete(first);
    assertEquals([old.status, old.body.error.code], [400, "reset_token_invalid"]);

    clock.advance(HOUR);
    const late = await complete(second);
    assertEquals([late.status, late.body.error.code], [400, "reset_token_expired"]);
    assertEquals((await logIn(mailed, user.email)).status, 200, "password unchanged");

    assertEquals((await reset()).status, 200);
    clock.advance(HOUR - 1);
    assertEquals((await complete(tokenIn(mail.sent[2].text))).status, 200, "valid until the hour");
  } finally {
    await mailed.close();
    await mail.close();
  }
});

dbTest("a reset that fails to save the password leaves the link usable", async (app) => {
  const mail = startFakeMail();
  const mailed = await createTestApp(app.backend, {
    env: { ...opts.env, MAIL_TRANSPORT_URL: mail.url },
    clock: new ManualClock(NOW),
  });
  const db = mailed.services.dbHandle;
  try {
    const root = await signUp(mailed, ROOT);
    const user = await signUp(mailed);
    mail.clear(); // the sign-ups' verification mails
    await root.post(`/api/admin/users/${user.userId}/reset-password`, {});
    const token = tokenIn(mail.sent[0].text);
    await db.exec(`
      CREATE FUNCTION test_refuse_update() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER test_refuse_update BEFORE UPDATE ON users
        FOR EACH ROW EXECUTE FUNCTION test_refuse_update();`);
    const anon = new Client(mailed);
    const failed = await anon.post("/api/auth/reset-password", { token, password: NEW_PASSWORD });
    assertEquals(failed.status, 500);
    assertEquals(failed.body.error.code, "internal", "no detail of the failure leaks");
    await db.exec(`DROP TRIGGER test_refuse_update ON users; DROP FUNCTION test_refuse_update();`);
    const retry = await anon.post("/api/auth/reset-password", { token, password: NEW_PASSWORD });
    assertEquals(retry.status, 200, "the token was put back");
    assertEquals((await logIn(mailed, user.email, NEW_PASSWORD)).status, 200);
  } finally {
    await db.exec(`DROP TRIGGER IF EXISTS test_refuse_update ON users;
      DROP FUNCTION IF EXISTS test_refuse_update();`).catch(() => {});
    await mailed.close();
    await mail.close();
  }
});

dbTest(
  "reset-password: 404 unknown user, 400 bad bodies; emailSent false without mail",
  async (app) => {
    const root = await signUp(app, ROOT);
    const user = await signUp(app);
    const r = await root.post(`/api/admin/users/${user.userId}/reset-password`);
    assertEquals(r.body.emailSent, false);
    assertEquals(r.body.sessionsEnded, 1);
    assertEquals(
      (await root.post(`/api/admin/users/${crypto.randomUUID()}/reset-password`)).status,
      404,
    );
    const bad = await root.post(`/api/admin/users/${user.userId}/reset-password`, { token: "x" });
    assertEquals(bad.status, 400);
    const anon = new Client(app);
    for (
      const body of [{}, { token: "x" }, { password: NEW_PASSWORD }, {
        token: "x",
        password: NEW_PASSWORD,
        extra: 1,
      }, "{nope"]
    ) {
      const res = await anon.post("/api/auth/reset-password", body);
      assertEquals(res.status, 400, JSON.stringify(body));
    }
    const unknown = await anon.post("/api/auth/reset-password", {
      token: "cly_pwr_nope",
      password: NEW_PASSWORD,
    });
    assertEquals([unknown.status, unknown.body.error.code], [400, "reset_token_invalid"]);
  },
  opts,
);

// ---- security ----

dbTest("admin ops: 401 anonymous, 403 for a signed-in non-admin, nothing changes", async (app) => {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  const id = await tenantIdOf(app, await createTenant(user));
  await seedLog(app, id, NOW - 40 * DAY, "/old");
  const u = `/api/admin/users/${user.userId}`;
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/admin/overview"],
    ["GET", "/api/admin/bandwidth-daily"],
    ["POST", "/api/admin/prune-logs", {}],
    ["PATCH", u, { name: "pwned" }],
    ["GET", `${u}/daily`],
    ["POST", `${u}/reset-password`, {}],
  ];
  const anon = new Client(app);
  for (const [method, path, body] of calls) {
    assertEquals((await anon.request(method, path, body)).status, 401, `${method} ${path}`);
    const r = await user.request(method, path, body);
    assertEquals(r.status, 403, `${method} ${path}`);
    assertEquals(r.body.error.code, "forbidden");
  }
  assertEquals(await logPaths(app), ["/old"]);
  assertEquals((await root.get(u)).body.name, null);
  assertEquals((await user.get("/api/auth/me")).status, 200, "the user's session lives");
}, opts);
