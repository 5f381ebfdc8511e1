/**
 * Security cases of members and invites kept together: another tenant's user and
 * invite ids are 404, role escalation is 403, bad input is 400 naming the field, and
 * the invite token is returned once (to the inviter) and never listed.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

async function setup(app: Parameters<typeof signUp>[0]) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug, base: `/api/tenants/${slug}/members` };
}

dbTest("members: bad input is 400 naming the field", async (app) => {
  const { owner, base } = await setup(app);
  const post = (p: string, body: unknown, field: string) => ({
    method: "POST",
    path: `${base}/${p}`,
    body,
    status: 400,
    field,
  });
  await expectRefusals(owner, [
    post("invite", { email: "a\u0000@example.com", role: "viewer" }, "email"),
    post("invite", { email: `${over(320)}@example.com`, role: "viewer" }, "email"),
    post("invite", { email: 42, role: "viewer" }, "email"),
    post("invite", { email: "a@example.com", role: ["admin"] }, "role"),
    post("remove", { userId: 7 }, "userId"),
    post("remove", { userId: "u\u0000" }, "userId"),
    post("revoke-invite", { inviteId: 2 ** 53 }, "inviteId"),
    post("revoke-invite", { inviteId: 1.5 }, "inviteId"),
    post("revoke-invite", { inviteId: 0 }, "inviteId"),
    post("update-role", { userId: owner.userId, role: "root" }, "role"),
  ]);
});

dbTest("members: unauthenticated 401; escalation and self-changes 403", async (app) => {
  const { owner, slug, base } = await setup(app);
  const admin = await memberWithRole(app, owner, slug, "admin");
  const other = await memberWithRole(app, owner, slug, "admin");
  const anon = new Client(app);
  await expectRefusals(anon, [
    { method: "GET", path: base, status: 401 },
    {
      method: "POST",
      path: `${base}/invite`,
      body: { email: "a@example.com", role: "viewer" },
      status: 401,
    },
  ]);
  await expectRefusals(admin, [
    {
      method: "POST",
      path: `${base}/invite`,
      body: { email: "b@example.com", role: "owner" },
      status: 403,
    },
    {
      method: "POST",
      path: `${base}/update-role`,
      body: { userId: admin.userId, role: "viewer" },
      status: 403,
    },
    {
      method: "POST",
      path: `${base}/update-role`,
      body: { userId: other.userId, role: "owner" },
      status: 403,
    },
    {
      method: "POST",
      path: `${base}/update-role`,
      body: { userId: owner.userId, role: "viewer" },
      status: 403,
    },
    { method: "POST", path: `${base}/remove`, body: { userId: other.userId }, status: 403 },
    { method: "POST", path: `${base}/remove`, body: { userId: owner.userId }, status: 403 },
    { method: "POST", path: `${base}/remove`, body: { userId: admin.userId }, status: 403 },
  ]);
  await expectRefusals(owner, [
    { method: "POST", path: `${base}/remove`, body: { userId: owner.userId }, status: 403 },
  ]);
  const list = await owner.get(base);
  assertEquals(
    list.body.members.find((m: { userId: string }) => m.userId === other.userId)?.role,
    "admin",
  );
});

dbTest("members: another tenant's users and invites are 404 and never listed", async (app) => {
  const a = await setup(app);
  const b = await setup(app);
  const bViewer = await memberWithRole(app, b.owner, b.slug, "viewer");
  const inv = await b.owner.post(`${b.base}/invite`, { email: "q@example.com", role: "viewer" });
  await expectRefusals(a.owner, [
    { method: "POST", path: `${a.base}/remove`, body: { userId: bViewer.userId }, status: 404 },
    {
      method: "POST",
      path: `${a.base}/update-role`,
      body: { userId: bViewer.userId, role: "editor" },
      status: 404,
    },
    {
      method: "POST",
      path: `${a.base}/revoke-invite`,
      body: { inviteId: inv.body.id },
      status: 404,
    },
    { method: "GET", path: b.base, status: 404 },
  ]);
  const mine = await a.owner.get(a.base);
  assert(!echoes(mine.body, bViewer.userId) && !echoes(mine.body, "q@example.com"), mine.text);
  const theirs = await b.owner.get(b.base);
  assertEquals(theirs.body.members.length, 2, "B unchanged");
  assertEquals(theirs.body.invites.length, 1, "B's invite still pending");
});

dbTest("members: the invite token is returned once and never listed", async (app) => {
  const { owner, slug, base } = await setup(app);
  const viewer = await memberWithRole(app, owner, slug, "viewer");
  const inv = await owner.post(`${base}/invite`, { email: "t@example.com", role: "editor" });
  assertEquals(inv.status, 200);
  const token: string = inv.body.token;
  assert(token.length >= 16);
  const asOwner = await owner.get(base);
  assertEquals(asOwner.body.invites.length, 1);
  assert(!echoes(asOwner.body, token), "owner's listing holds no token");
  const asViewer = await viewer.get(base);
  assertEquals(asViewer.body.invites, []);
  assert(!echoes(asViewer.body, token) && !echoes(asViewer.body, "t@example.com"));
});
