/**
 * Security cases of custom domains kept together: another tenant's domain ids and
 * hostnames are 404, writes need admin (403), sessions are required (401), and bad
 * input is 400 naming the field.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { echoes, expectRefusals } from "./refusals.ts";

const resolveDns =
  (() => Promise.reject(new Deno.errors.NotFound("nx"))) as unknown as typeof Deno.resolveDns;

async function setup(app: Parameters<typeof signUp>[0]) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug, base: `/api/tenants/${slug}/domains` };
}

dbTest("domains: bad input is 400 naming the field", async (app) => {
  const { owner, base } = await setup(app);
  const label = "a".repeat(60);
  await expectRefusals(owner, [
    {
      method: "POST",
      path: base,
      body: { hostname: "www.\u0000.example" },
      status: 400,
      field: "hostname",
    },
    {
      method: "POST",
      path: base,
      body: { hostname: `${[label, label, label, label, label].join(".")}.com` },
      status: 400,
      field: "hostname",
    },
    {
      method: "POST",
      path: base,
      body: { hostname: ["www.shop.example"] },
      status: 400,
      field: "hostname",
    },
    { method: "POST", path: base, body: { hostname: "www.shop.example", extra: 1 }, status: 400 },
    { method: "DELETE", path: base, body: { id: 1.5 }, status: 400, field: "id" },
    { method: "DELETE", path: base, body: { id: 2 ** 63 }, status: 400, field: "id" },
    { method: "DELETE", path: `${base}?id=99999999999999999999`, status: 400, field: "id" },
    // Past int4 (the column's type): 400, not a failed query.
    { method: "DELETE", path: `${base}?id=2147483648`, status: 400, field: "id" },
    { method: "DELETE", path: base, body: { id: "9999999999" }, status: 400, field: "id" },
    { method: "DELETE", path: base, body: { id: 2 ** 40 }, status: 400, field: "id" },
    { method: "POST", path: `${base}/verify`, body: { id: 2147483648 }, status: 400, field: "id" },
    { method: "DELETE", path: `${base}?hostname=a%00b.example`, status: 400, field: "hostname" },
    {
      method: "POST",
      path: `${base}/verify`,
      body: { hostname: "x\u0000.example" },
      status: 400,
      field: "hostname",
    },
    { method: "POST", path: `${base}/verify`, body: { id: -3 }, status: 400, field: "id" },
  ]);
}, { resolveDns });

dbTest("domains: 401 anonymous, 403 below admin", async (app) => {
  const { owner, slug, base } = await setup(app);
  const editor = await memberWithRole(app, owner, slug, "editor");
  const anon = new Client(app);
  const writes = [
    { method: "POST", path: base, body: { hostname: "www.shop.example" } },
    { method: "DELETE", path: base, body: { hostname: "www.shop.example" } },
    { method: "POST", path: `${base}/verify`, body: { hostname: "www.shop.example" } },
  ];
  await expectRefusals(anon, [
    { method: "GET", path: base, status: 401 },
    ...writes.map((w) => ({ ...w, status: 401 })),
  ]);
  await expectRefusals(editor, writes.map((w) => ({ ...w, status: 403 })));
  assertEquals((await owner.get(base)).body.domains, [], "nothing was added");
}, { resolveDns });

dbTest(
  "domains: another tenant's domain is 404 by id or hostname and never listed",
  async (app) => {
    const a = await setup(app);
    const b = await setup(app);
    const d = await b.owner.post(b.base, { hostname: "www.b-shop.example" });
    assertEquals(d.status, 201);
    await expectRefusals(a.owner, [
      { method: "DELETE", path: a.base, body: { id: d.body.id }, status: 404 },
      { method: "DELETE", path: `${a.base}?hostname=www.b-shop.example`, status: 404 },
      { method: "POST", path: `${a.base}/verify`, body: { id: d.body.id }, status: 404 },
      { method: "GET", path: b.base, status: 404 },
    ]);
    const mine = await a.owner.get(a.base);
    assert(!echoes(mine.body, "b-shop"), mine.text);
    assertEquals((await b.owner.get(b.base)).body.domains.length, 1, "B's domain untouched");
  },
  { resolveDns },
);
