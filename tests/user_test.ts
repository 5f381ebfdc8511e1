import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

const PASSWORD = "correct horse battery";

// ---- happy ----

dbTest(
  "POST /api/user/tokens shows the token once; it works as Bearer until revoked",
  async (app) => {
    const user = await signUp(app);
    const created = await user.post("/api/user/tokens", { name: "cli" });
    assertEquals(created.status, 201);
    assertMatch(created.body.token, /^cly_pat_[\w-]{40,}$/);
    assertEquals(created.body.name, "cli");
    const list = await user.get("/api/user/tokens");
    assertEquals(list.body.tokens.map((t: { id: number }) => t.id), [created.body.id]);
    assert(!list.text.includes(created.body.token), "listing never shows the token");

    const cli = new Client(app);
    cli.bearer = created.body.token;
    assertEquals((await cli.get("/api/auth/me")).body.user.id, user.userId);
    // Bearer writes need no Origin: tokens are not ambient credentials, so there is no CSRF.
    const slug = await createTenant(cli);
    assertEquals(
      (await cli.request("PUT", `/api/tenants/${slug}`, { apiCacheTTL: 30 }, {
        origin: "https://elsewhere.example",
      })).status,
      200,
    );

    assertEquals((await user.delete(`/api/user/tokens/${created.body.id}`)).status, 200);
    assertEquals((await cli.get("/api/auth/me")).status, 401, "revoked token is refused");
    assertEquals((await user.get("/api/user/tokens")).body.tokens, []);
  },
);

dbTest("PATCH /api/user/profile updates the name", async (app) => {
  const user = await signUp(app);
  const r = await user.patch("/api/user/profile", { name: "  Ada  " });
  assertEquals(r.status, 200);
  assertEquals(r.body.ok, true);
  assertEquals(r.body.user.name, "Ada");
  assertEquals((await user.get("/api/auth/me")).body.user.name, "Ada");
  assertEquals((await user.patch("/api/user/profile", { name: null })).body.user.name, null);
});

dbTest(
  "POST /api/user/change-password: the new password logs in; the old one and other sessions end",
  async (app) => {
    const user = await signUp(app);
    const elsewhere = new Client(app);
    await elsewhere.post("/api/auth/login", { email: user.email, password: PASSWORD });
    assertEquals((await elsewhere.get("/api/auth/me")).status, 200);
    const r = await user.post("/api/user/change-password", {
      currentPassword: PASSWORD,
      newPassword: "a brand new secret 42",
    });
    assertEquals(r.status, 200);
    assertEquals(r.body, { ok: true });
    assertEquals((await user.get("/api/auth/me")).status, 200, "the caller's session stays");
    assertEquals((await elsewhere.get("/api/auth/me")).status, 401, "other sessions end");
    const old = await new Client(app).post("/api/auth/login", {
      email: user.email,
      password: PASSWORD,
    });
    assertEquals(old.status, 401);
    const fresh = await new Client(app).post("/api/auth/login", {
      email: user.email,
      password: "a brand new secret 42",
    });
    assertEquals(fresh.status, 200);
  },
);

// ---- errors ----

dbTest(
  "user routes: 400 names the field, 404 for unknown tokens, 401 without a session",
  async (app) => {
    const user = await signUp(app);
    const noName = await user.post("/api/user/tokens", {});
    assertEquals(noName.status, 400);
    assertMatch(noName.body.error.message, /^Invalid name/);
    assertEquals((await user.patch("/api/user/profile", { name: "x".repeat(121) })).status, 400);
    const unknown = await user.patch("/api/user/profile", { email: "new@example.com" });
    assertEquals(unknown.status, 400, "email is not patchable here");
    assertEquals((await user.post("/api/user/change-password", { newPassword: "x" })).status, 400);
    assertEquals((await user.delete("/api/user/tokens/abc")).status, 400);
    assertEquals((await user.delete("/api/user/tokens/999999")).status, 404);
    const anon = new Client(app);
    assertEquals((await anon.get("/api/user/tokens")).status, 401);
    assertEquals((await anon.post("/api/user/tokens", { name: "x" })).status, 401);
    assertEquals((await anon.patch("/api/user/profile", { name: "x" })).status, 401);
    assertEquals((await anon.post("/api/user/change-password", {})).status, 401);
    const bogus = new Client(app);
    bogus.bearer = "cly_pat_not-a-real-token";
    assertEquals((await bogus.get("/api/auth/me")).status, 401, "a bad token is never anonymous");
  },
);

dbTest(
  "POST /api/user/change-password: 403 for a wrong current password or a policy breach",
  async (app) => {
    const user = await signUp(app);
    const wrong = await user.post("/api/user/change-password", {
      currentPassword: "not my password",
      newPassword: "a brand new secret 42",
    });
    assertEquals(wrong.status, 403);
    const policy = await user.post("/api/user/change-password", {
      currentPassword: PASSWORD,
      newPassword: "short",
    });
    assertEquals(policy.status, 403);
    assertEquals(policy.body.error.code, "password_policy");
    assertMatch(policy.body.error.message, /at least 10 characters/);
  },
);

// ---- security ----

dbTest("a user can neither see nor revoke another user's tokens", async (app) => {
  const a = await signUp(app);
  const b = await signUp(app);
  const tok = await a.post("/api/user/tokens", { name: "a" });
  assertEquals((await b.get("/api/user/tokens")).body.tokens, []);
  assertEquals((await b.delete(`/api/user/tokens/${tok.body.id}`)).status, 404);
  const cli = new Client(app);
  cli.bearer = tok.body.token;
  assertEquals((await cli.get("/api/auth/me")).status, 200, "still valid");
});
