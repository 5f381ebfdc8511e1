import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";

const ROOT = "root@example.com";
const opts = { env: { ADMIN_EMAILS: ROOT } };
const PASSWORD = "correct horse battery";

async function setup(app: TestApp) {
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  return { root, user, base: `/api/admin/users/${user.userId}` };
}

async function logIn(app: TestApp, email: string) {
  const c = new Client(app);
  const r = await c.post("/api/auth/login", { email, password: PASSWORD });
  return { c, r };
}

// ---- happy ----

dbTest("GET /api/admin/users/{userId} shows the user, memberships and token count", async (app) => {
  const { root, user, base } = await setup(app);
  const slug = await createTenant(user);
  await user.post("/api/user/tokens", { name: "cli" });
  const r = await root.get(base);
  assertEquals(r.status, 200);
  assertEquals(r.body.id, user.userId);
  assertEquals(r.body.email, user.email);
  assertEquals(r.body.blocked, false);
  assertEquals(r.body.isAdmin, false);
  assertEquals(r.body.tenants, [{ slug, role: "owner" }]);
  assertEquals(r.body.activeTokens, 1);
  assert(!r.text.includes("argon2"), "no password hash");
}, opts);

dbTest(
  "POST block ends every session, refuses log-in and tokens; unblock restores log-in",
  async (app) => {
    const { root, user, base } = await setup(app);
    const second = await logIn(app, user.email);
    assertEquals(second.r.status, 200);
    const pat = (await user.post("/api/user/tokens", { name: "cli" })).body.token;
    const bearer = new Client(app);
    bearer.bearer = pat;
    assertEquals((await bearer.get("/api/auth/me")).status, 200);

    const r = await root.post(`${base}/block`, { blocked: true, reason: "abuse" });
    assertEquals(r.status, 200);
    assertEquals(r.body.ok, true);
    assertEquals(r.body.blocked, true);
    assertEquals(r.body.blockedReason, "abuse");
    assertEquals(r.body.sessionsEnded, 2);
    assertEquals((await user.get("/api/auth/me")).status, 401, "first session ended");
    assertEquals((await second.c.get("/api/auth/me")).status, 401, "second session ended");
    assertEquals((await bearer.get("/api/auth/me")).status, 401, "tokens refused");
    const refused = await logIn(app, user.email);
    assertEquals(refused.r.status, 403);
    assertEquals(refused.r.body.error.code, "user_blocked");
    assertEquals((await root.get(base)).body.blockedReason, "abuse");

    const un = await root.post(`${base}/block`, { blocked: false });
    assertEquals(un.body, {
      ok: true,
      userId: user.userId,
      blocked: false,
      blockedReason: null,
      sessionsEnded: 0,
    });
    assertEquals((await logIn(app, user.email)).r.status, 200);
    assertEquals((await bearer.get("/api/auth/me")).status, 200, "unrevoked tokens work again");
  },
  opts,
);

// ---- errors ----

dbTest("POST block: 400 for a bad body or self-block, 404 for an unknown user", async (app) => {
  const { root, base } = await setup(app);
  for (
    const body of [{}, { blocked: "yes" }, { blocked: true, reason: "x".repeat(501) }, {
      blocked: true,
      extra: 1,
    }]
  ) {
    const r = await root.post(`${base}/block`, body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assert(r.body.error.message.startsWith("Invalid"));
  }
  assertEquals((await root.post(`${base}/block`, "{nope")).status, 400);
  const self = await root.post(`/api/admin/users/${root.userId}/block`, { blocked: true });
  assertEquals(self.status, 400);
  const unknown = crypto.randomUUID();
  assertEquals(
    (await root.post(`/api/admin/users/${unknown}/block`, { blocked: true })).status,
    404,
  );
  assertEquals((await root.get(`/api/admin/users/${unknown}`)).status, 404);
  assertEquals((await root.get(`/api/admin/users/not-a-uuid`)).status, 404);
}, opts);

// ---- security ----

dbTest("admin user routes: 401 anonymous, 403 for a signed-in non-admin", async (app) => {
  const { user, base } = await setup(app);
  const other = await signUp(app);
  const anon = new Client(app);
  assertEquals((await anon.get(base)).status, 401);
  assertEquals((await anon.post(`${base}/block`, { blocked: true })).status, 401);
  assertEquals((await other.get(base)).status, 403);
  assertEquals((await other.post(`${base}/block`, { blocked: true })).status, 403);
  assertEquals((await user.post(`${base}/block`, { blocked: false })).status, 403);
  assertEquals((await user.get("/api/auth/me")).status, 200, "nothing happened to the user");
}, opts);
