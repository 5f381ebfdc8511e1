/**
 * Security cases of usage ingest and check (X-Ingest-Key) kept together: the key is the
 * only credential (401 missing, 403 wrong, never a session, never echoed), and bad
 * records are 400 naming the field with nothing counted.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

const KEY = "ingest-key-0123456789abcdef";
const opts = { env: { INGEST_KEY: KEY } };
const auth = { "x-ingest-key": KEY };

dbTest("usage: the ingest key is required, exact, and never echoed", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const rec = { tenant: slug, bytes: 1, path: "/", status: 200 };
  const edge = new Client(app);
  const ingest = (headers: Record<string, string>, status: number) => ({
    method: "POST",
    path: "/api/usage/ingest",
    body: rec,
    headers,
    status,
  });
  const check = (headers: Record<string, string>, status: number) => ({
    method: "GET",
    path: `/api/usage/check?tenant=${slug}`,
    headers,
    status,
  });
  await expectRefusals(edge, [
    ingest({}, 401),
    ingest({ authorization: `Bearer ${KEY}` }, 401),
    ingest({ "x-ingest-key": KEY.slice(0, -1) }, 403),
    ingest({ "x-ingest-key": KEY + "0" }, 403),
    ingest({ "x-ingest-key": KEY.toUpperCase() }, 403),
    ingest({ "x-ingest-key": over(4096) }, 403),
    check({}, 401),
    check({ "x-ingest-key": "wrong" }, 403),
  ]);
  await expectRefusals(owner, [ingest({}, 401), check({}, 401)]);
  const withQuery = await edge.post(`/api/usage/ingest?key=${KEY}`, rec);
  assertEquals(withQuery.status, 401, "a key in the URL is no credential");
  for (
    const r of [
      await edge.post("/api/usage/ingest", rec, auth),
      await edge.get(`/api/usage/check?tenant=${slug}`, auth),
    ]
  ) {
    assertEquals(r.status, 200, r.text);
    assert(!echoes(r.body, KEY) && !r.text.includes(KEY), "the key is never echoed");
  }
}, opts);

dbTest(
  "usage: NUL, over-long, wrong types and out-of-range values are 400 naming the field",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const good = { tenant: slug, bytes: 1, path: "/", status: 200 };
    const bad = (body: unknown, field: string) => ({
      method: "POST",
      path: "/api/usage/ingest",
      body,
      headers: auth,
      status: 400,
      field,
    });
    await expectRefusals(new Client(app), [
      bad({ ...good, tenant: `${slug}\u0000` }, "tenant"),
      bad({ ...good, tenant: over(100) }, "tenant"),
      bad({ ...good, path: "/a\u0000" }, "path"),
      bad({ ...good, path: "/" + over(2048) }, "path"),
      bad({ ...good, method: "GET\u0000" }, "method"),
      bad({ ...good, method: "G E T" }, "method"),
      bad({ ...good, status: "200" }, "status"),
      bad({ ...good, status: 600 }, "status"),
      bad({ ...good, durationMs: 3_600_001 }, "durationMs"),
      bad({ ...good, blocked: "yes" }, "blocked"),
      bad(
        { ...good, experiment: { experimentId: 2 ** 31, variantId: 1, variantKey: "a" } },
        "experiment.experimentId",
      ),
      bad(
        { ...good, experiment: { experimentId: 1, variantId: 1, variantKey: over(100) } },
        "experiment.variantKey",
      ),
      bad({ records: [good, { ...good, path: "/\u0000" }] }, "records.1.path"),
      {
        method: "GET",
        path: `/api/usage/check?tenant=${slug}%00`,
        headers: auth,
        status: 400,
        field: "tenant",
      },
      {
        method: "GET",
        path: `/api/usage/check?tenant=${over(100)}`,
        headers: auth,
        status: 400,
        field: "tenant",
      },
      {
        method: "GET",
        path: `/api/usage/check?tenant=${slug}&period=2026-01%00`,
        headers: auth,
        status: 400,
        field: "period",
      },
    ]);
    await app.instance.usageAggregator.flush();
    const usage = await new Client(app).get(`/api/usage/check?tenant=${slug}`, auth);
    assertEquals(usage.status, 200);
    assertEquals(
      usage.body.usage?.requests ?? usage.body.requests ?? 0,
      0,
      `nothing counted: ${usage.text}`,
    );
  },
  opts,
);

dbTest("tenant usage: 401 anonymous, 404 another tenant, 400 bad period", async (app) => {
  const a = await signUp(app);
  const slugA = await createTenant(a);
  const b = await signUp(app);
  await createTenant(b);
  await expectRefusals(new Client(app), [
    { method: "GET", path: `/api/tenants/${slugA}/usage`, status: 401 },
    { method: "GET", path: "/api/tenants/usage", status: 401 },
  ]);
  await expectRefusals(b, [{ method: "GET", path: `/api/tenants/${slugA}/usage`, status: 404 }]);
  await expectRefusals(a, [
    {
      method: "GET",
      path: `/api/tenants/${slugA}/usage?period=2026-13`,
      status: 400,
      field: "period",
    },
    { method: "GET", path: `/api/tenants/${slugA}/usage?period=%00`, status: 400, field: "period" },
  ]);
  const mine = await b.get("/api/tenants/usage");
  assertEquals(mine.status, 200);
  assert(!echoes(mine.body, slugA), "another tenant's usage never listed");
});
