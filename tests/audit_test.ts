import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";

const zone = new Map<string, string[][]>();
const fakeDns =
  ((name: string, type: string) =>
    type === "TXT" && zone.has(name)
      ? Promise.resolve(zone.get(name))
      : Promise.reject(new Deno.errors.NotFound(name))) as unknown as typeof Deno.resolveDns;

type Event = { id: number; action: string; target: string | null; metadata: unknown };

async function allEvents(c: Client, slug: string): Promise<Event[]> {
  return (await c.get(`/api/tenants/${slug}/audit-events?limit=200`)).body.events;
}

/** Makes one change of every audited kind; returns every secret value it handled. */
async function exerciseEverything(app: TestApp, owner: Client, slug: string) {
  const base = `/api/tenants/${slug}`;
  const secrets: string[] = ["CANARY-create-token-5b1e"];
  await owner.put(`${base}/api-token`, { token: "CANARY-put-token-77c0" });
  secrets.push("CANARY-put-token-77c0");
  await owner.put(base, { cacheTTL: 120 });
  await owner.put(`${base}/api-config`, { cacheTTL: 90 });
  const ed = await memberWithRole(app, owner, slug, "editor");
  await owner.post(`${base}/members/update-role`, { userId: ed.userId, role: "viewer" });
  await owner.post(`${base}/members/remove`, { userId: ed.userId });
  const inv = await owner.post(`${base}/members/invite`, {
    email: "x@example.com",
    role: "viewer",
  });
  secrets.push(inv.body.token);
  await owner.post(`${base}/members/revoke-invite`, { inviteId: inv.body.id });
  const d = await owner.post(`${base}/domains`, { hostname: "www.audit.example" });
  zone.set("_cachely.www.audit.example", [[d.body.verification.txt.value]]);
  await owner.post(`${base}/domains/verify`, { id: d.body.id });
  await owner.delete(`${base}/domains`, { id: d.body.id });
  const s1 = (await owner.post(`${base}/webhook-secret`)).body.secret;
  await new Client(app).post(`${base}/webhook?secret=${s1}`);
  const s2 = (await owner.put(`${base}/webhook-secret`)).body.secret;
  secrets.push(s1, s2);
  await owner.post(`${base}/refresh-cache`, { type: "all" });
  const pat = await owner.post("/api/user/tokens", { name: "cli" });
  secrets.push(pat.body.token);
  return secrets;
}

// ---- happy ----

dbTest(
  "audit-events records membership, role, config, token, domain, secret and cache changes",
  async (app) => {
    zone.clear();
    const owner = await signUp(app);
    const slug = await createTenant(owner, {
      cms: "contentful",
      token: "CANARY-create-token-5b1e",
    });
    await exerciseEverything(app, owner, slug);
    const actions = (await allEvents(owner, slug)).map((e) => e.action).reverse();
    for (
      const a of [
        "tenant.created",
        "tenant.api_token.updated",
        "tenant.updated",
        "tenant.api_config.updated",
        "member.invited",
        "member.joined",
        "member.role_changed",
        "member.removed",
        "member.invite_revoked",
        "domain.added",
        "domain.verified",
        "domain.deleted",
        "webhook_secret.created",
        "cache.publish_webhook",
        "webhook_secret.rotated",
        "cache.refreshed",
      ]
    ) assert(actions.includes(a), `missing ${a} in ${actions.join(", ")}`);
    assertEquals(actions[0], "tenant.created", "oldest last in the page, first here");
  },
  { resolveDns: fakeDns },
);

dbTest("audit-events pages newest first by beforeId with hasMore", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (let i = 0; i < 6; i++) await owner.put(`/api/tenants/${slug}`, { apiCacheTTL: 10 + i });
  const base = `/api/tenants/${slug}/audit-events`;
  const all = await owner.get(base);
  assertEquals(all.status, 200);
  assertEquals(all.body.events.length, 7);
  assertEquals(all.body.hasMore, false);
  const ids = all.body.events.map((e: Event) => e.id);
  assertEquals(ids, [...ids].sort((a: number, b: number) => b - a), "newest first");
  const p1 = await owner.get(`${base}?limit=3`);
  assertEquals(p1.body.events.map((e: Event) => e.id), ids.slice(0, 3));
  assertEquals(p1.body.hasMore, true);
  const p2 = await owner.get(`${base}?limit=3&beforeId=${ids[2]}`);
  assertEquals(p2.body.events.map((e: Event) => e.id), ids.slice(3, 6));
  assertEquals(p2.body.hasMore, true);
  const p3 = await owner.get(`${base}?limit=3&beforeId=${ids[5]}`);
  assertEquals(p3.body.events.map((e: Event) => e.id), ids.slice(6));
  assertEquals(p3.body.hasMore, false);
  const e = all.body.events[0];
  assertEquals(e.action, "tenant.updated");
  assertEquals(e.actorUserId, owner.userId);
  assert(!Number.isNaN(Date.parse(e.createdAt)));
  assertEquals((await owner.get(`${base}?limit=200`)).body.events.length, 7);
});

// ---- errors ----

dbTest(
  "audit-events: 400 on a bad limit or beforeId, 401 without a session, 404 for strangers",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const base = `/api/tenants/${slug}/audit-events`;
    for (
      const q of [
        "limit=0",
        "limit=201",
        "limit=abc",
        "limit=1.5",
        "limit=-1",
        "beforeId=0",
        "beforeId=-3",
        "beforeId=x",
        "beforeId=",
      ]
    ) {
      const r = await owner.get(`${base}?${q}`);
      assertEquals(r.status, 400, q);
      assertMatch(r.body.error.message, /^Invalid (limit|beforeId)/);
    }
    assertEquals((await new Client(app).get(base)).status, 401);
    assertEquals((await (await signUp(app)).get(base)).status, 404);
    assertEquals((await owner.get("/api/tenants/no-such/audit-events")).status, 404);
  },
);

// ---- security ----

dbTest("no secret ever appears in audit rows or the audit API (canary values)", async (app) => {
  zone.clear();
  const owner = await signUp(app);
  const slug = await createTenant(owner, { cms: "contentful", token: "CANARY-create-token-5b1e" });
  const secrets = await exerciseEverything(app, owner, slug);
  assert(secrets.length >= 6 && secrets.every((x) => typeof x === "string" && x.length > 8));
  const rows = await app.services.dbHandle.query<{ row: string }>(
    "SELECT row_to_json(a)::text AS row FROM audit_events a",
  );
  assert(rows.length >= 16, `audit rows: ${rows.length}`);
  const dump = rows.map((r) => r.row).join("\n");
  const api = (await owner.get(`/api/tenants/${slug}/audit-events?limit=200`)).text;
  for (const secret of secrets) {
    assert(!dump.includes(secret), "secret in audit_events");
    assert(!api.includes(secret), "secret in the audit API");
  }
  assert(!dump.includes("CANARY"), "no canary fragment either");
}, { resolveDns: fakeDns });

dbTest(
  "audit-events are readable by every member and never show another tenant's events",
  async (app) => {
    const a = await signUp(app);
    const b = await signUp(app);
    const slugA = await createTenant(a);
    const slugB = await createTenant(b);
    await b.put(`/api/tenants/${slugB}`, { apiCacheTTL: 15 });
    const viewer = await memberWithRole(app, a, slugA, "viewer");
    const r = await viewer.get(`/api/tenants/${slugA}/audit-events`);
    assertEquals(r.status, 200);
    assert(r.body.events.every((e: Event) => e.target !== slugB && e.action !== "tenant.updated"));
    const bIds = (await allEvents(b, slugB)).map((e) => e.id);
    const beyond = await a.get(
      `/api/tenants/${slugA}/audit-events?beforeId=${Math.max(...bIds) + 1}`,
    );
    assert(beyond.body.events.every((e: Event) => !bIds.includes(e.id)), "keyset stays in tenant");
    assertEquals((await viewer.get(`/api/tenants/${slugB}/audit-events`)).status, 404);
  },
);

dbTest("a settings save that changes nothing writes no audit row", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const base = `/api/tenants/${slug}`;
  const rows = async (action: string) =>
    (await allEvents(owner, slug)).filter((e) => e.action === action).length;
  assertEquals((await owner.put(base, { cacheTTL: 120 })).status, 200);
  assertEquals((await owner.put(`${base}/api-config`, { cacheTTL: 90 })).status, 200);
  const [updated, config] = [await rows("tenant.updated"), await rows("tenant.api_config.updated")];
  assertEquals([updated, config], [1, 1]);
  // The same values again, and an empty save: no change, no row.
  assertEquals((await owner.put(base, { cacheTTL: 120 })).status, 200);
  assertEquals((await owner.put(base, {})).status, 200);
  assertEquals((await owner.put(`${base}/api-config`, { cacheTTL: 90 })).status, 200);
  assertEquals([await rows("tenant.updated"), await rows("tenant.api_config.updated")], [1, 1]);
  // A real change still is.
  assertEquals((await owner.put(base, { cacheTTL: 121 })).status, 200);
  assertEquals(await rows("tenant.updated"), 2);
});
