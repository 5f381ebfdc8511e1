/**
 * The master-admin console pages (/admin…), rendered in process: happy (figures, charts,
 * actions with confirmation), empty, error (bad query, unknown user) and forbidden.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { utcDay } from "../lib/usage/days.ts";
import { formatUsd } from "../lib/dashboard/format.ts";
import { fakeSubscription, startFakeStripe } from "./fakes/stripe.ts";

const ROOT = "root@example.com";
const opts = { env: { ADMIN_EMAILS: ROOT } };
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const stripe = startFakeStripe();
// Teardown, not a test: closed when the file's tests are done, also when some are filtered out.
globalThis.addEventListener("unload", () => void stripe.close());
const payments = {
  env: {
    ADMIN_EMAILS: ROOT,
    STRIPE_SECRET_KEY: "sk_test_admin_pages",
    STRIPE_PRICE_PRO: "price_pro",
    STRIPE_API_BASE: stripe.url,
  },
};

/** Posts the rendered form for `api` as a browser would, confirmed; the bridge's JSON answer. */
async function submitForm(
  c: Client,
  html: string,
  api: string,
  extra: Record<string, string> = {},
) {
  const [form] = formsFor(html, api);
  assert(form, `a form for ${api}`);
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields.append(m[1], m[2].replaceAll("&amp;", "&").replaceAll("&quot;", '"'));
  }
  for (const [k, v] of Object.entries(extra)) fields.set(k, v);
  fields.set("_confirmed", "1");
  const r = await c.post("/forms", fields.toString(), { ...FORM, accept: "application/json" });
  assertEquals(r.status, 200, r.text);
  return r.body.outcome as { ok: boolean; message: string };
}

/** The `<form …>` opening tags of a page whose hidden `_api` field is `api`. */
function formsFor(html: string, api: string): string[] {
  return [...html.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0])
    .filter((f) => f.includes(`name="_api" value="${api}"`));
}

// ---- happy ----

dbTest("GET /admin: figures, bandwidth and request charts, top tenants", async (app) => {
  const root = await signUp(app, ROOT);
  const slug = await createTenant(root);
  const day = utcDay(app.clock.now());
  await seedUsageDays(app, await tenantIdOf(app, slug), [
    { day, requests: 1234, bytes: 5_000_000, hits: 900, misses: 100 },
  ]);
  const r = await root.get("/admin");
  assertEquals(r.status, 200);
  assertStringIncludes(r.text, "<h1>Overview</h1>");
  assertStringIncludes(r.text, 'aria-current="page"', "the console's own navigation");
  assertStringIncludes(r.text, "1,234");
  assertStringIncludes(r.text, "5.00 MB");
  assertStringIncludes(r.text, "90.0 %", "hit ratio");
  assertEquals((r.text.match(/<svg[^>]*role="img"/g) ?? []).length, 2, "two charts");
  assertStringIncludes(r.text, `${day}: 5.00 MB`, "bars carry their value for hover");
  assertStringIncludes(r.text, ">1.25 MB</text>", "the byte axis ticks in byte units");
  assertStringIncludes(r.text, `href="/dashboard/${slug}"`);
}, opts);

dbTest(
  "GET /admin/users searches; a user's page offers block, plan, reset, each confirmed",
  async (app) => {
    const root = await signUp(app, ROOT);
    const ada = await signUp(app, "ada@example.com");
    await signUp(app, "bob@example.com");
    const list = await root.get("/admin/users?q=ada");
    assertEquals(list.status, 200);
    assertStringIncludes(list.text, `href="/admin/users/${ada.userId}"`);
    assert(!list.text.includes("bob@example.com"), "only matches");

    const page = await root.get(`/admin/users/${ada.userId}`);
    assertEquals(page.status, 200);
    assertStringIncludes(page.text, "<h1>ada@example.com</h1>");
    assertStringIncludes(page.text, "<title>ada@example.com · Admin · Cachely</title>");
    const base = `/api/admin/users/${ada.userId}`;
    for (
      const api of [`${base}/block`, `/api/admin/billing/${ada.userId}`, `${base}/reset-password`]
    ) {
      const [form] = formsFor(page.text, api);
      assert(form, `a form for ${api}`);
      assertStringIncludes(form, 'method="post"');
      assertStringIncludes(form, "data-confirm=", `${api} asks first`);
    }
    const self = await root.get(`/admin/users/${root.userId}`);
    assertStringIncludes(self.text, "data-own-account", "says why there is no block form");
    assertEquals(formsFor(self.text, `/api/admin/users/${root.userId}/block`), []);
  },
  opts,
);

dbTest("the block form works without JavaScript through the form bridge", async (app) => {
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  const page = await root.get(`/admin/users/${user.userId}`);
  const [form] = formsFor(page.text, `/api/admin/users/${user.userId}/block`);
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields.append(m[1], m[2].replaceAll("&amp;", "&").replaceAll("&quot;", '"'));
  }
  fields.set("reason", "spam");
  fields.set("_confirmed", "1");
  const r = await root.post("/forms", fields.toString(), FORM);
  assertEquals(r.status, 303);
  const view = await root.get(`/api/admin/users/${user.userId}`);
  assertEquals(view.body.blocked, true);
  assertEquals(view.body.blockedReason, "spam");
  assertStringIncludes((await root.get(`/admin/users/${user.userId}`)).text, "Unblock");
}, opts);

dbTest(
  "a user's plan: the override is released and billing synced from the payment provider",
  async (app) => {
    const root = await signUp(app, ROOT);
    const user = await signUp(app);
    const page = () => root.get(`/admin/users/${user.userId}`);
    const sync = `/api/billing/sync?userId=${user.userId}`;
    const none = await submitForm(root, (await page()).text, sync);
    assertEquals(none.ok, false, "no subscription: nothing synced, and said so");
    assertStringIncludes(none.message, "Nothing to sync");

    const set = await root.patch(`/api/admin/billing/${user.userId}`, { planCode: "pro" });
    assertEquals(set.status, 200, set.text);
    const overridden = await page();
    assertStringIncludes(overridden.text, "data-plan-override");
    const release = `/api/admin/billing/${user.userId}`;
    const forms = formsFor(overridden.text, release);
    assertEquals(forms.length, 2, "set the plan, release the override");
    const [, releaseForm] = forms;
    assertStringIncludes(releaseForm, 'name="adminOverride:bool" value="false"');
    const released = await submitForm(root, releaseForm, release);
    assert(released.ok, released.message);
    const state = await root.get(`/api/admin/users/${user.userId}`);
    assertEquals(state.status, 200);
    const [row] = await app.services.dbHandle.query<{ admin_override: boolean }>(
      `SELECT admin_override FROM billing_accounts WHERE user_id = '${user.userId}'`,
    );
    assertEquals(row.admin_override, false);
    assert(!(await page()).text.includes("data-plan-override"));

    await app.services.dbHandle.exec(
      `UPDATE billing_accounts SET stripe_customer_id = 'cus_admin_pages',
         stripe_subscription_id = 'sub_admin_pages', status = 'active'
       WHERE user_id = '${user.userId}'`,
    );
    stripe.setSubscription(
      fakeSubscription("sub_admin_pages", "cus_admin_pages", "past_due", 1_900_000_000),
    );
    const synced = await submitForm(root, (await page()).text, sync);
    assert(synced.ok, synced.message);
    assertStringIncludes(synced.message, "subscription past_due");
  },
  payments,
);

dbTest("GET /admin/logs filters by least level and pages with a cursor", async (app) => {
  const root = await signUp(app, ROOT);
  app.services.log.warn("disk almost full", { freeMb: 120 });
  app.services.log.error("upstream timed out", {});
  const warn = await root.get("/admin/logs?level=warn");
  assertEquals(warn.status, 200);
  assertStringIncludes(warn.text, "disk almost full");
  assertStringIncludes(warn.text, "upstream timed out");
  const err = await root.get("/admin/logs?level=error");
  assert(!err.text.includes("disk almost full"), "warn is below error");
  assertStringIncludes(err.text, '<option value="error" selected');
  assertEquals(formsFor(err.text, "/api/admin/logs-test").length, 1);
  for (let i = 0; i < 55; i++) app.services.log.error(`burst ${i}`, {});
  const first = await root.get("/admin/logs?level=error");
  const older = first.text.match(/href="(\/admin\/logs\?level=error&amp;cursor=\d+)"/)?.[1];
  assert(older, "a link to older entries");
  assert(!first.text.includes("upstream timed out"), "the oldest is on the next page");
  const next = await root.get(older.replaceAll("&amp;", "&"));
  assertStringIncludes(next.text, "upstream timed out");
}, { env: { ...opts.env, LOG_LEVEL: "info" } });

dbTest(
  "GET /admin/platform: aggregator status, cost model, every platform action confirmed",
  async (app) => {
    const root = await signUp(app, ROOT);
    const r = await root.get("/admin/platform");
    assertEquals(r.status, 200);
    assertStringIncludes(r.text, "Usage aggregator");
    assertStringIncludes(r.text, "Flush errors");
    assertStringIncludes(r.text, "Cost model");
    assertStringIncludes(r.text, "Total");
    for (
      const api of [
        "/api/admin/d1-init",
        "/api/admin/prune-logs",
        "/api/admin/migrate-kv-to-d1",
        "/api/admin/quota-snapshots/backfill",
        "/api/admin/backfill-members",
      ]
    ) {
      const [form] = formsFor(r.text, api);
      assert(form, `a form for ${api}`);
      assertStringIncludes(form, "data-confirm=", `${api} asks first`);
    }
  },
  opts,
);

dbTest(
  "GET /admin/usage: is usage flowing, and every tenant's requests paged by cursor",
  async (app) => {
    const root = await signUp(app, ROOT);
    const slug = await createTenant(root);
    const id = await tenantIdOf(app, slug);
    await app.services.dbHandle.exec(
      `INSERT INTO request_logs (tenant_id, method, path, status, bytes, cache)
     SELECT ${id}, 'GET', '/~api/posts/' || n, CASE WHEN n = 1 THEN 502 ELSE 200 END, 2048, 'HIT'
     FROM generate_series(1, 55) AS n`,
    );
    const r = await root.get("/admin/usage");
    assertEquals(r.status, 200);
    assertStringIncludes(r.text, "<h1>Usage</h1>");
    assertStringIncludes(r.text, 'href="/admin/usage" aria-current="page"');
    assertStringIncludes(r.text, "KV reachable");
    assertStringIncludes(r.text, "Request log rows");
    assertStringIncludes(r.text, "<dd>55</dd>", "the rows that reached the database");
    assertStringIncludes(r.text, "/~api/posts/55", "newest first");
    assertStringIncludes(r.text, `href="/admin/tenants/${slug}"`);
    assert(!r.text.includes("/~api/posts/1<"), "the oldest is on the next page");
    const older = r.text.match(/href="(\/admin\/usage\?cursor=\d+)"/)?.[1];
    assert(older, "a link to older requests");
    const next = await root.get(older);
    assertStringIncludes(next.text, "/~api/posts/1<");
    assertStringIncludes(next.text, 'class="badge error">502');
    assert(!next.text.includes("/~api/posts/55"), "not the newest again");
  },
  opts,
);

dbTest("GET /admin/tenants/:slug: a tenant's revenue, cost and owner for a month", async (app) => {
  const root = await signUp(app, ROOT);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const day = utcDay(app.clock.now());
  await seedUsageDays(app, await tenantIdOf(app, slug), [
    { day, requests: 4321, bytes: 3 * 1024 * 1024, hits: 4000, misses: 321 },
  ]);
  const r = await root.get(`/admin/tenants/${slug.toUpperCase()}`);
  assertEquals(r.status, 200, r.text.slice(0, 300));
  assertStringIncludes(r.text, `<h1>Tenant ${slug}</h1>`);
  assertStringIncludes(r.text, "4,321 requests");
  assertStringIncludes(r.text, "Modeled cost");
  assertStringIncludes(r.text, "projected to the month", "the current month is projected");
  assertStringIncludes(
    r.text,
    `href="/admin/users/${owner.userId}">${owner.email}</a>`,
    "who pays, by email, linked",
  );
  const api = await root.get(`/api/admin/tenants/${slug}/earned`);
  assertStringIncludes(r.text, formatUsd(api.body.cost.totalUsd), "the API's figure");
  const overview = await root.get("/admin");
  assertStringIncludes(overview.text, `aria-label="Revenue and cost of ${slug}"`);
  const user = await root.get(`/admin/users/${owner.userId}`);
  assertStringIncludes(user.text, `href="/admin/tenants/${slug}"`);
}, opts);

dbTest("GET /admin/users pages through every user, newest first", async (app) => {
  const root = await signUp(app, ROOT);
  // Rows, not sign-ups (sign-up is rate limited); one a minute apart, paged00 the oldest.
  await app.services.dbHandle.exec(
    `INSERT INTO users (id, email, password_hash, created_at)
     SELECT 'paged-' || n, 'paged' || lpad(n::text, 2, '0') || '@example.com', 'x',
            now() - interval '1 day' + n * interval '1 minute'
     FROM generate_series(0, 54) AS n`,
  );
  const first = await root.get("/admin/users?q=paged");
  assertStringIncludes(first.text, "Users 1–50, newest first");
  assertStringIncludes(first.text, "paged54@example.com");
  assert(!first.text.includes("paged04@example.com"), "the oldest five are on page 2");
  assertStringIncludes(first.text, 'href="/admin/users?q=paged&amp;page=2"');
  const second = await root.get("/admin/users?q=paged&page=2");
  assertStringIncludes(second.text, "Users 51–55, newest first");
  assertStringIncludes(second.text, "paged00@example.com");
  assert(!second.text.includes("paged54@example.com"));
  assertStringIncludes(second.text, 'href="/admin/users?q=paged">Newer');
  const beyond = await root.get("/admin/users?page=99");
  assertStringIncludes(beyond.text, 'data-empty="page"', "page 99 is empty");
}, opts);

// ---- empty ----

dbTest("an empty platform: empty states name the next step", async (app) => {
  const root = await signUp(app, ROOT);
  const r = await root.get("/admin");
  assertStringIncludes(r.text, 'data-empty="tenant-traffic"');
  assertStringIncludes(r.text, 'data-empty="chart"', "the day charts say nothing was recorded");
  const none = await root.get("/admin/users?q=nobody-like-this");
  assertStringIncludes(none.text, 'data-empty="matches"');
}, opts);

// ---- error ----

dbTest("bad queries answer 400 pages naming the field; unknown users 404", async (app) => {
  const root = await signUp(app, ROOT);
  const acme = await createTenant(await signUp(app), { slug: "acme" });
  const period = await root.get("/admin?period=2026-13");
  assertEquals(period.status, 400);
  assertStringIncludes(period.text, "Invalid period");
  const level = await root.get("/admin/logs?level=loud");
  assertEquals(level.status, 400);
  assertStringIncludes(level.text, "Invalid level");
  const missing = await root.get("/admin/users/no-such-user");
  assertEquals(missing.status, 404);
  assertStringIncludes(missing.text, 'data-error-code="not_found"');
  for (
    const [path, what] of [
      ["/admin/users?page=0", "Invalid page"],
      ["/admin/users?page=x", "Invalid page"],
      ["/admin/usage?cursor=-1", "Invalid cursor"],
      [`/admin/tenants/${acme}?period=2026-13`, "Invalid period"],
    ]
  ) {
    const r = await root.get(path);
    assertEquals(r.status, 400, path);
    assertStringIncludes(r.text, what, path);
  }
  const tenant = await root.get("/admin/tenants/no-such-tenant");
  assertEquals(tenant.status, 404);
  assertStringIncludes(tenant.text, 'data-error-code="not_found"');
}, opts);

// ---- forbidden ----

dbTest(
  "non-admins get a 403 page that explains; anonymous visitors log in and come back",
  async (app) => {
    const user = await signUp(app);
    const slug = await createTenant(user);
    for (
      const path of [
        "/admin",
        "/admin/users",
        "/admin/users?page=2",
        "/admin/usage",
        `/admin/tenants/${slug}`,
        "/admin/logs",
        "/admin/platform",
      ]
    ) {
      const r = await user.get(path);
      assertEquals(r.status, 403, path);
      assertStringIncludes(r.text, 'role="alert" data-error-code="forbidden"', path);
      assert(!r.text.includes("Cost model"), "nothing of the console leaks");
      assert(!r.text.includes("Revenue"), "no figures of the user's own tenant either");
    }
    const anon = await new Client(app).get("/admin/users?q=x");
    assertEquals(anon.status, 302);
    assertEquals(anon.headers.get("location"), "/login?next=%2Fadmin%2Fusers%3Fq%3Dx");
  },
  opts,
);
