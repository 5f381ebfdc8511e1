/** GET /api/admin/users?q=: master-admin user search. */
import { assertEquals } from "./assert.ts";
import { dbTest, signUp } from "./harness.ts";

const opts = { env: { ADMIN_EMAILS: "root@example.com" } };

dbTest(
  "GET /api/admin/users finds users by a piece of email, % and _ taken literally",
  async (app) => {
    const root = await signUp(app, "root@example.com");
    await signUp(app, "ada_lovelace@example.com");
    await signUp(app, "adaxlovelace@example.com");
    const r = await root.get("/api/admin/users?q=ADA_");
    assertEquals(r.status, 200);
    assertEquals(r.body.users.map((u: { email: string }) => u.email), ["ada_lovelace@example.com"]);
    assertEquals(r.body.users[0].plan, "free");
    assertEquals(r.body.users[0].blocked, false);
    const pct = await root.get("/api/admin/users?q=%25");
    assertEquals(pct.body.users, [], "% is not a wildcard");
    const all = await root.get("/api/admin/users?limit=2");
    assertEquals(all.body.users.length, 2);
    assertEquals(all.body.hasMore, true);
  },
  opts,
);

dbTest(
  "GET /api/admin/users: 400 names the bad field, 403 for non-admins, 401 anonymous",
  async (app) => {
    const root = await signUp(app, "root@example.com");
    const user = await signUp(app);
    const bad = await root.get("/api/admin/users?limit=0");
    assertEquals(bad.status, 400);
    assertEquals(bad.body.error.details?.field ?? bad.body.error.message.includes("limit"), true);
    assertEquals((await root.get("/api/admin/users?page=2")).status, 400);
    assertEquals((await user.get("/api/admin/users")).status, 403);
    user.cookies.clear();
    assertEquals((await user.get("/api/admin/users")).status, 401);
  },
  opts,
);
