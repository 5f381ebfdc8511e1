/**
 * Custom-domain plan rules: subdomains only (400 naming the apex reason), pro only (403),
 * one per tenant (409), and a downgraded account's domains suspended at the end of the period
 * (status shown, not deleted, off the edge) and restored when it returns to pro.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { ManualClock } from "../lib/clock.ts";
import { mail, quotaEnv, ROOT } from "./quota_helpers.ts";
import { at } from "./quota_helpers.ts";
import { readHostRoute } from "../lib/kv/snapshot.ts";
import { isApex } from "../lib/domains/plan_rules.ts";
import { backfillQuotaSnapshots } from "../lib/billing/quota_backfill.ts";

const zone = new Map<string, string[][]>();
const fakeDns = ((name: string, type: string) => {
  const rec = type === "TXT" ? zone.get(name.toLowerCase()) : undefined;
  if (!rec) return Promise.reject(new Deno.errors.NotFound(`no ${type} for ${name}`));
  return Promise.resolve(rec);
}) as unknown as typeof Deno.resolveDns;

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0); // 2026-11-25 (sessions live 14 days)
const opts = () => ({
  env: quotaEnv(mail.url),
  clock: new ManualClock(T0),
  resolveDns: fakeDns,
});

async function proTenant(app: TestApp) {
  const admin = await signUp(app, ROOT);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const base = `/api/tenants/${slug}/domains`;
  return { admin, owner, slug, base };
}

Deno.test("isApex(): two labels, or three under a two-label public suffix", () => {
  assertEquals(
    ["example.com", "shop.co.uk", "www.example.com", "a.shop.co.uk", "cdn.shop.example"].map(
      isApex,
    ),
    [true, true, false, false, false],
  );
});

dbTest(
  "a free account gets 403 for a custom domain, naming the pro plan",
  at(T0, async (app) => {
    const { owner, base } = await proTenant(app);
    const r = await owner.post(base, { hostname: "www.shop.example" });
    assertEquals(r.status, 403);
    assertEquals(r.body.error.code, "plan_required");
    assertMatch(r.body.error.message, /pro plan/);
  }),
  opts(),
);

dbTest(
  "pro: one subdomain per tenant (409 on a second), 400 for an apex with the reason",
  at(T0, async (app) => {
    const { admin, owner, base } = await proTenant(app);
    await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "pro" });
    const apex = await owner.post(base, { hostname: "shop.example" });
    assertEquals(apex.status, 400);
    assertMatch(apex.body.error.message, /CNAME cannot live at the apex/);
    assertEquals(apex.body.error.details.fields[0].path, "hostname");
    assertEquals((await owner.post(base, { hostname: "www.shop.example" })).status, 201);
    const second = await owner.post(base, { hostname: "cdn.shop.example" });
    assertEquals(second.status, 409);
    assertMatch(second.body.error.message, /at most one custom domain/);
    // Concurrent adds to another tenant: exactly one wins.
    const slug2 = await createTenant(owner);
    const tries = await Promise.all(
      ["a", "b", "c", "d"].map((x) =>
        owner.post(`/api/tenants/${slug2}/domains`, { hostname: `${x}.other.example` })
      ),
    );
    assertEquals(tries.map((r) => r.status).sort(), [201, 409, 409, 409]);
  }),
  opts(),
);

dbTest(
  "after a downgrade the domain works until the period ends, then is suspended",
  at(T0, async (app) => {
    const { admin, owner, base, slug } = await proTenant(app);
    await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "pro" });
    const added = await owner.post(base, { hostname: "www.shop.example" });
    zone.set("_cachely.www.shop.example", [[
      `cachely-verify=${added.body.verification.txt.value.split("=")[1]}`,
    ]]);
    const verified = await owner.post(`${base}/verify`, { hostname: "www.shop.example" });
    assertEquals(verified.body.status, "active");
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), slug);

    await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "free" });
    await backfillQuotaSnapshots(app.services);
    assertEquals((await owner.get(base)).body.domains[0].status, "active", "until the period ends");
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), slug);

    app.clock.set(Date.UTC(2026, 11, 1)); // the 1st of the next month
    await backfillQuotaSnapshots(app.services);
    const listed = (await owner.get(base)).body.domains;
    assertEquals([listed.length, listed[0].status], [1, "suspended"], "kept, not deleted");
    assertMatch(listed[0].failureReason, /pro plan/);
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), null);
    assertEquals(await app.edge.resolveDomain("www.shop.example"), null, "off the edge");
    // Re-verifying does not bring it back on free.
    assertEquals(
      (await owner.post(`${base}/verify`, { hostname: "www.shop.example" })).status,
      403,
    );

    await admin.patch(`/api/admin/billing/${owner.userId}`, { planCode: "pro" });
    assertEquals((await owner.get(base)).body.domains[0].status, "active");
    assertEquals(await readHostRoute(app.services.kv, "www.shop.example"), slug);
  }),
  opts(),
);
