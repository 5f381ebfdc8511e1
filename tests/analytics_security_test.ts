/**
 * Security cases of analytics, bandwidth and request logs kept together: another tenant's
 * traffic never shows (404 through its slug, absent from mine), sessions are required
 * (401), and bad queries are 400 naming the field.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

const KEY = "ingest-key-analytics-0123456789";
const opts = { env: { INGEST_KEY: KEY, REQUEST_LOG_SAMPLE_RATE: "1" } };

/** One request of `slug` through the real ingest path, flushed to the database. */
async function traffic(app: TestApp, slug: string, path: string) {
  const r = await new Client(app).post("/api/usage/ingest", {
    tenant: slug,
    bytes: 100,
    path,
    status: 200,
    kind: "api",
  }, { "x-ingest-key": KEY });
  assertEquals(r.status, 200, r.text);
  await app.instance.usageAggregator.flush();
}

dbTest("analytics and logs: another tenant's traffic is 404 and never listed", async (app) => {
  const a = await signUp(app);
  const b = await signUp(app);
  const slugA = await createTenant(a);
  const slugB = await createTenant(b);
  await traffic(app, slugB, "/~api/secret-path-of-b");
  const routes = ["analytics", "bandwidth-daily", "logs"];
  await expectRefusals(
    a,
    routes.map((r) => ({ method: "GET", path: `/api/tenants/${slugB}/${r}`, status: 404 })),
  );
  await expectRefusals(
    new Client(app),
    routes.map((r) => ({ method: "GET", path: `/api/tenants/${slugA}/${r}`, status: 401 })),
  );
  for (const r of routes) {
    const mine = await a.get(`/api/tenants/${slugA}/${r}`);
    assertEquals(mine.status, 200, r);
    assert(!echoes(mine.body, "secret-path-of-b"), `${r}: ${mine.text}`);
  }
  const theirs = await b.get(`/api/tenants/${slugB}/logs`);
  assert(echoes(theirs.body, "secret-path-of-b"), "B sees its own request");
  const viewer = await memberWithRole(app, b, slugB, "viewer");
  assertEquals((await viewer.get(`/api/tenants/${slugB}/logs`)).status, 200, "viewers read logs");
}, opts);

dbTest("analytics and logs: bad queries are 400 naming the field", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const q = (route: string, query: string, field: string) => ({
    method: "GET",
    path: `/api/tenants/${slug}/${route}?${query}`,
    status: 400,
    field,
  });
  await expectRefusals(owner, [
    q("analytics", "period=2026-01%00", "period"),
    q("analytics", `period=${over(100)}`, "period"),
    q("bandwidth-daily", "from=2026-01-01%00", "from"),
    q("bandwidth-daily", "to=99999-01-01", "to"),
    q("logs", "limit=0", "limit"),
    q("logs", "limit=201", "limit"),
    q("logs", "limit=1e2", "limit"),
    q("logs", "beforeId=0", "beforeId"),
    q("logs", "beforeId=99999999999999999", "beforeId"),
    q("logs", "beforeId=-5", "beforeId"),
    q("logs", "status=999", "status"),
    q("logs", "cache=WARM", "cache"),
    q("logs", "kind=video", "kind"),
    q("logs", "path=/a%00b", "path"),
    q("logs", `path=/${over(2048)}`, "path"),
    q("logs", "path=no-slash", "path"),
    q("logs", "from=yesterday", "from"),
    q("logs", "to=2026-01-01T00:00:00", "to"),
  ]);
});
