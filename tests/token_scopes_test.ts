/**
 * Personal access tokens: scopes read < write < admin enforced on every route,
 * minting needs admin, an optional expiry, and a password change or reset revokes them all;
 * the form bridge creates a scoped token with an expiry and the pages say what revokes them.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

const DAY = 24 * 3_600_000;

async function tokenClient(owner: Client, body: Record<string, unknown>) {
  const r = await owner.post("/api/user/tokens", { name: "t", ...body });
  assertEquals(r.status, 201, r.text);
  const c = new Client(owner.app);
  c.bearer = r.body.token;
  return { client: c, created: r.body };
}

dbTest(
  "token scopes: read only reads, write writes, admin does tenant-admin and minting",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const { client: read, created } = await tokenClient(owner, { scopes: ["read"] });
    assertEquals(created.scopes, ["read"]);
    const { client: write } = await tokenClient(owner, { scopes: ["write", "read"] });
    const { client: admin } = await tokenClient(owner, {});
    assertEquals((await read.get(`/api/tenants/${slug}`)).status, 200);
    const refused = await read.post(`/api/tenants/${slug}/refresh-cache`, { type: "all" });
    assertEquals(refused.status, 403, refused.text);
    assertEquals(refused.body.error.code, "insufficient_scope");
    assertStringIncludes(refused.body.error.message, "write");
    assert((await write.post(`/api/tenants/${slug}/refresh-cache`, { type: "all" })).status < 300);
    // Tenant settings need the tenant admin role: an admin-scoped token.
    assertEquals((await write.put(`/api/tenants/${slug}`, { cacheTTL: 60 })).status, 403);
    assertEquals((await admin.put(`/api/tenants/${slug}`, { cacheTTL: 60 })).status, 200);
    // Minting: only an admin-scoped token (a session always may).
    assertEquals((await read.post("/api/user/tokens", { name: "more" })).status, 403);
    assertEquals((await write.post("/api/user/tokens", { name: "more" })).status, 403);
    assertEquals((await admin.post("/api/user/tokens", { name: "more" })).status, 201);
    const listed = (await owner.get("/api/user/tokens")).body.tokens;
    assertEquals(listed.find((t: { id: number }) => t.id === created.id).scopes, ["read"]);
    const bad = await owner.post("/api/user/tokens", { name: "x", scopes: ["root"] });
    assertEquals(bad.status, 400);
    assertStringIncludes(bad.body.error.message, "scopes");
  },
);

dbTest(
  "token expiry: works until then, 401 after; past or far expiries are refused",
  async (app) => {
    const owner = await signUp(app);
    const at = new Date(app.clock.now() + 2 * DAY).toISOString();
    const { client, created } = await tokenClient(owner, { expiresAt: at });
    assertEquals(created.expiresAt, at);
    assertEquals((await client.get("/api/auth/me")).status, 200);
    app.clock.advance(3 * DAY);
    assertEquals((await client.get("/api/auth/me")).status, 401);
    const past = new Date(app.clock.now() - DAY).toISOString();
    assertEquals(
      (await owner.post("/api/user/tokens", { name: "x", expiresAt: past })).status,
      400,
    );
    const far = new Date(app.clock.now() + 400 * DAY).toISOString();
    assertEquals((await owner.post("/api/user/tokens", { name: "x", expiresAt: far })).status, 400);
  },
);

dbTest("a password change revokes every personal access token; the pages say so", async (app) => {
  const owner = await signUp(app);
  const { client } = await tokenClient(owner, {});
  assertEquals((await client.get("/api/auth/me")).status, 200);
  const changed = await owner.post("/api/user/change-password", {
    currentPassword: "correct horse battery",
    newPassword: "another horse battery",
  });
  assertEquals(changed.status, 200, changed.text);
  assertEquals((await client.get("/api/auth/me")).status, 401);
  assertEquals((await owner.get("/api/user/tokens")).body.tokens, []);
  assertStringIncludes((await owner.get("/account/password")).text, "revokes");
  assertStringIncludes((await owner.get("/account/tokens")).text, "revokes every token");
});
