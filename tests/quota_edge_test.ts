/**
 * Monthly quotas enforced at the edge: a free account pushed over its requests or bandwidth
 * by real edge traffic or by usage ingest is paused (429, Retry-After to the next UTC month,
 * reason named, not counted), warned by mail at 80 % and 100 %, and served again on the 1st.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf, type TestApp } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { ManualClock } from "../lib/clock.ts";
import { edgeGet, flush, INGEST_KEY, mail, quotaEnv, ROOT, tenantMonth } from "./quota_helpers.ts";
import { at } from "./quota_helpers.ts";
import { readQuotaSnapshot } from "../lib/kv/quota.ts";

const up = startUpstream();
const T0 = Date.UTC(2026, 10, 30, 23, 0, 0); // 2026-11-30 23:00 UTC, one hour before December
const opts = () => ({ env: quotaEnv(mail.url), clock: new ManualClock(T0) });

async function freeTenant(app: TestApp) {
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: up.url });
  return { owner, slug, tenantId: await tenantIdOf(app, slug) };
}

/** Quota mails to one address (the sign-up's verification mail left out). */
const mailsTo = (email: string) =>
  mail.sent.filter((m) => m.to === email && !m.subject.startsWith("Confirm your"));

dbTest(
  "a free account over its requests is paused at the edge until the 1st (UTC)",
  at(T0, async (app) => {
    const { owner, slug, tenantId } = await freeTenant(app);
    for (let i = 0; i < 7; i++) assertEquals((await edgeGet(app, slug, `/~api/r${i}`)).status, 200);
    await flush(app);
    assertEquals((await readQuotaSnapshot(app.services.kv, owner.userId))?.level, 0);
    // 8 of 10: the 80 % warning, once.
    assertEquals((await edgeGet(app, slug, "/~api/r7")).status, 200);
    await flush(app);
    assertEquals(mailsTo(owner.email).length, 1);
    assertMatch(mailsTo(owner.email)[0].subject, /80 %/);
    await flush(app);
    for (let i = 8; i < 10; i++) {
      assertEquals(
        (await edgeGet(app, slug, `/~api/r${i}`)).status,
        200,
      );
    }
    await flush(app);
    const snap = await readQuotaSnapshot(app.services.kv, owner.userId);
    assertEquals([snap?.level, snap?.paused, snap?.reason], [100, true, "requests"]);
    const sent = mailsTo(owner.email);
    assertEquals(sent.length, 2);
    assertMatch(sent[1].subject, /all included requests/);

    const paused = await edgeGet(app, slug, "/~api/r0");
    assertEquals(paused.status, 429);
    assertEquals(paused.headers.get("retry-after"), "3600");
    assertEquals(paused.body.error.code, "quota_exceeded");
    assertEquals(paused.body.error.details.reason, "requests");
    assertMatch(paused.body.error.message, /free plan's included requests/);
    // A page or asset request gets a plain-text body naming the reason.
    const plain = await edgeGet(app, slug, "/image.png", "text/html");
    assertEquals(plain.status, 429);
    assertMatch(plain.text, /included requests for 2026-11 are used up/);
    // Paused answers are not usage.
    await flush(app);
    assertEquals((await tenantMonth(app, tenantId)).requests, 10);
    const check = await new Client(app).get(`/api/usage/check?tenant=${slug}`, {
      "x-ingest-key": INGEST_KEY,
    });
    assertEquals(check.status, 200);
    assertEquals(check.body.allowed, false);
    assertEquals(check.body.limits, { requests: 10, bytes: 5_000 });
    assertEquals(check.body.account.reason, "requests");

    // One second before midnight: Retry-After 1; at 00:00 on the 1st the pause is over.
    app.clock.set(Date.UTC(2026, 11, 1) - 1000);
    assertEquals((await edgeGet(app, slug, "/~api/r1")).headers.get("retry-after"), "1");
    app.clock.set(Date.UTC(2026, 11, 1));
    assertEquals((await edgeGet(app, slug, "/~api/r1")).status, 200);
    await flush(app);
    const dec = await readQuotaSnapshot(app.services.kv, owner.userId);
    assertEquals([dec?.period, dec?.level, dec?.paused], ["2026-12", 0, false]);
    assertEquals(mailsTo(owner.email).length, 2, "no mail for going back under");
  }),
  opts(),
);

dbTest(
  "bandwidth: bytes sent to visitors (hits too) pause a free account",
  at(T0, async (app) => {
    const { owner, slug } = await freeTenant(app);
    // Each response is 2,000 bytes; the free plan includes 5,000 bytes here.
    assertEquals((await edgeGet(app, slug, "/~api/big?bytes=2000")).status, 200);
    const hit = await edgeGet(app, slug, "/~api/big?bytes=2000");
    assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
    await flush(app);
    assertEquals((await readQuotaSnapshot(app.services.kv, owner.userId))?.level, 80);
    await edgeGet(app, slug, "/~api/big?bytes=2000");
    await flush(app);
    const r = await edgeGet(app, slug, "/~api/anything");
    assertEquals(r.status, 429);
    assertEquals(r.body.error.details.reason, "bandwidth");
    assertEquals(r.headers.get("x-cachely-quota"), "paused; reason=bandwidth");
    // A fresh cached entry too: the synchronous hit path checks the quota first.
    const cachedHit = await edgeGet(app, slug, "/~api/big?bytes=2000");
    assertEquals(cachedHit.status, 429);
  }),
  opts(),
);

dbTest(
  "usage ingest from a remote edge pushes a free account over the limit too",
  at(T0, async (app) => {
    const { owner, slug } = await freeTenant(app);
    const ingest = await new Client(app).post("/api/usage/ingest", {
      records: [{ tenant: slug, bytes: 6_000, path: "/~api/x", status: 200 }],
    }, { "x-ingest-key": INGEST_KEY });
    assertEquals(ingest.status, 200, ingest.text);
    await flush(app);
    assertEquals((await edgeGet(app, slug, "/~api/a")).status, 429);
    assert(mailsTo(owner.email).some((m) => /all included bandwidth/.test(m.subject)));
  }),
  opts(),
);

dbTest(
  "QUOTAS=off: no limits, no pause, usage/check allows",
  at(T0, async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { apiOrigin: up.url });
    await createTenant(owner); // no tenant limit either
    for (let i = 0; i < 12; i++) await edgeGet(app, slug, `/~api/r${i}`);
    await flush(app);
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 200);
    const check = await new Client(app).get(`/api/usage/check?tenant=${slug}`, {
      "x-ingest-key": INGEST_KEY,
    });
    assertEquals([check.body.allowed, check.body.limits], [true, { requests: null, bytes: null }]);
    assertEquals(await readQuotaSnapshot(app.services.kv, owner.userId), null);
  }),
  { env: quotaEnv(mail.url, { QUOTAS: "off" }), clock: new ManualClock(T0) },
);

dbTest(
  "fail-open: an unreadable quota snapshot serves the request",
  at(T0, async (app) => {
    const { owner, slug } = await freeTenant(app);
    for (let i = 0; i < 10; i++) await edgeGet(app, slug, `/~api/r${i}`);
    await flush(app);
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 429);
    // A snapshot of a shape the edge cannot use (e.g. written by a newer version) never pauses.
    await app.services.kv.set(["edge", "quota", owner.userId], "garbage");
    app.edge.invalidateQuota(owner.userId);
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 200);
  }),
  opts(),
);

dbTest(
  "an admin override to pro lifts the pause at once; back to free pauses again",
  at(T0, async (app) => {
    const { owner, slug } = await freeTenant(app);
    const admin = await signUp(app, ROOT);
    for (let i = 0; i < 10; i++) await edgeGet(app, slug, `/~api/r${i}`);
    await flush(app);
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 429);
    const pro = await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "pro" });
    assertEquals(pro.status, 200);
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 200);
    const bad = await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "gold" });
    assertEquals(bad.status, 400);
    assertEquals(bad.body.error.details.fields[0].path, "planCode");
    await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "free" });
    assertEquals((await edgeGet(app, slug, "/~api/r0")).status, 429);
  }),
  opts(),
);
