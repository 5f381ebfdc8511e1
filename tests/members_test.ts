import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, createTestApp, dbTest, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { startFakeMail } from "./fakes/mail.ts";

const ADMIN_EMAIL = "root@example.com";

async function setup(app: TestApp) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug, base: `/api/tenants/${slug}/members` };
}

// ---- happy ----

dbTest("POST members/invite returns the invite once and accept makes a member", async (app) => {
  const { owner, slug, base } = await setup(app);
  const invitee = await signUp(app);
  const r = await owner.post(`${base}/invite`, {
    email: invitee.email.toUpperCase(),
    role: "editor",
  });
  assertEquals(r.status, 200);
  assertEquals(Object.keys(r.body).sort(), [
    "createdAt",
    "email",
    "emailSent",
    "expiresAt",
    "id",
    "role",
    "token",
  ]);
  assertEquals(r.body.email, invitee.email, "email is normalised");
  assertEquals(r.body.role, "editor");
  assertEquals(r.body.emailSent, false, "no mail transport configured");
  assert(Date.parse(r.body.expiresAt) > app.clock.now());
  assertMatch(r.body.token, /^cly_inv_/);

  const listed = await owner.get(base);
  assertEquals(listed.body.invites.map((i: { id: number }) => i.id), [r.body.id]);
  assert(!listed.text.includes(r.body.token), "the token is never listed");

  const acc = await invitee.post("/api/invites/accept", { token: r.body.token });
  assertEquals(acc.status, 200);
  assertEquals(acc.body, { ok: true, tenant: slug, role: "editor" });
  const after = await owner.get(base);
  assertEquals(after.body.invites, [], "an accepted invite is no longer pending");
  const me = after.body.members.find((m: { userId: string }) => m.userId === invitee.userId);
  assertEquals(me.role, "editor");
  assertEquals((await invitee.get(`/api/tenants/${slug}`)).status, 200);
});

dbTest(
  "POST members/invite refreshes a pending invite: same id, new token, old one dead",
  async (app) => {
    const { owner, base } = await setup(app);
    const invitee = await signUp(app);
    const first = await owner.post(`${base}/invite`, { email: invitee.email, role: "viewer" });
    app.clock.advance(60_000);
    const second = await owner.post(`${base}/invite`, { email: invitee.email, role: "admin" });
    assertEquals(second.body.id, first.body.id);
    assertEquals(second.body.role, "admin");
    assert(second.body.token !== first.body.token);
    assert(Date.parse(second.body.expiresAt) > Date.parse(first.body.expiresAt));
    const old = await invitee.post("/api/invites/accept", { token: first.body.token });
    assertEquals(old.status, 404);
    const ok = await invitee.post("/api/invites/accept", { token: second.body.token });
    assertEquals(ok.body.role, "admin");
  },
);

dbTest("concurrent invites for one email leave one pending invite", async (app) => {
  const { owner, base } = await setup(app);
  const results = await Promise.all(
    Array.from(
      { length: 6 },
      () => owner.post(`${base}/invite`, { email: "race@example.com", role: "viewer" }),
    ),
  );
  assertEquals(results.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
  assertEquals(new Set(results.map((r) => r.body.id)).size, 1);
  assertEquals((await owner.get(base)).body.invites.length, 1);
});

dbTest("emailSent is true only when the mail transport accepts the message", async (app) => {
  const mail = startFakeMail();
  // A second app on the same backend, configured with the loopback transport's URL.
  const mailed = await createTestApp(app.backend, { env: { MAIL_TRANSPORT_URL: mail.url } });
  try {
    const { owner, slug, base } = await setup(mailed);
    mail.clear(); // the owner's verification mail
    const r = await owner.post(`${base}/invite`, { email: "new@example.com", role: "viewer" });
    assertEquals(r.body.emailSent, true);
    assertEquals(mail.sent.length, 1);
    assertEquals(mail.sent[0].to, "new@example.com");
    assert(mail.sent[0].subject.includes(slug));
    assert(mail.sent[0].text.includes(r.body.token), "the mail carries the accept link");
    mail.fail(500);
    const down = await owner.post(`${base}/invite`, { email: "other@example.com", role: "viewer" });
    assertEquals(down.status, 200, "the invite is created even when mail fails");
    assertEquals(down.body.emailSent, false);
  } finally {
    await mailed.close();
    await mail.close();
  }
});

dbTest("members/update-role and members/remove change membership", async (app) => {
  const { owner, slug, base } = await setup(app);
  const ed = await memberWithRole(app, owner, slug, "editor");
  const up = await owner.post(`${base}/update-role`, { userId: ed.userId, role: "admin" });
  assertEquals(up.status, 200);
  assertEquals(up.body.userId, ed.userId);
  assertEquals(up.body.role, "admin");
  assert(!Number.isNaN(Date.parse(up.body.updatedAt)));
  const rm = await owner.post(`${base}/remove`, { userId: ed.userId });
  assertEquals(rm.status, 200);
  assertEquals(rm.body, { ok: true, userId: ed.userId });
  assertEquals((await ed.get(base)).status, 404, "a removed member loses access");
});

dbTest(
  "members/revoke-invite revokes once; the token then fails and a second revoke is 404",
  async (app) => {
    const { owner, base } = await setup(app);
    const invitee = await signUp(app);
    const inv = await owner.post(`${base}/invite`, { email: invitee.email, role: "viewer" });
    const r = await owner.post(`${base}/revoke-invite`, { inviteId: inv.body.id });
    assertEquals(r.status, 200);
    assertEquals(r.body, { ok: true, inviteId: inv.body.id });
    const again = await owner.post(`${base}/revoke-invite`, { inviteId: inv.body.id });
    assertEquals(again.status, 404);
    const acc = await invitee.post("/api/invites/accept", { token: inv.body.token });
    assertEquals(acc.status, 410);
    assertEquals(acc.body.error.code, "invite_revoked");
  },
);

// ---- errors ----

dbTest("members endpoints: 400 names the field", async (app) => {
  const { owner, base } = await setup(app);
  const cases: Array<[string, unknown, string]> = [
    ["invite", { email: "nope", role: "viewer" }, "email"],
    ["invite", { email: "a@example.com", role: "god" }, "role"],
    ["remove", {}, "userId"],
    ["revoke-invite", { inviteId: "7" }, "inviteId"],
    ["revoke-invite", { inviteId: -1 }, "inviteId"],
    ["update-role", { userId: owner.userId }, "role"],
  ];
  for (const [path, body, field] of cases) {
    const r = await owner.post(`${base}/${path}`, body);
    assertEquals(r.status, 400, `${path} ${JSON.stringify(body)}`);
    assert(r.body.error.message.startsWith(`Invalid ${field}`), r.body.error.message);
  }
  const member = await owner.post(`${base}/invite`, { email: owner.email, role: "viewer" });
  assertEquals(member.status, 400, "an existing member cannot be invited");
  assertEquals((await owner.post("/api/invites/accept", {})).status, 400);
});

dbTest(
  "members endpoints: 404 for unknown members, invites and tokens; 401 without a session",
  async (app) => {
    const { owner, base } = await setup(app);
    const stranger = await signUp(app);
    assertEquals((await owner.post(`${base}/remove`, { userId: stranger.userId })).status, 404);
    assertEquals(
      (await owner.post(`${base}/update-role`, { userId: stranger.userId, role: "viewer" })).status,
      404,
    );
    assertEquals((await owner.post(`${base}/revoke-invite`, { inviteId: 999999 })).status, 404);
    assertEquals(
      (await stranger.post("/api/invites/accept", { token: "cly_inv_nope" })).status,
      404,
    );
    const anon = new Client(app);
    assertEquals((await anon.get(base)).status, 401);
    assertEquals((await anon.post("/api/invites/accept", { token: "x" })).status, 401);
    assertEquals(
      (await anon.post(`${base}/invite`, { email: "a@b.co", role: "viewer" })).status,
      401,
    );
  },
);

dbTest("POST /api/invites/accept: expired and used invites are 410 with a code", async (app) => {
  const { owner, base } = await setup(app);
  const a = await signUp(app);
  const b = await signUp(app);
  const invA = await owner.post(`${base}/invite`, { email: a.email, role: "viewer" });
  const invB = await owner.post(`${base}/invite`, { email: b.email, role: "viewer" });
  assertEquals((await a.post("/api/invites/accept", { token: invA.body.token })).status, 200);
  const used = await a.post("/api/invites/accept", { token: invA.body.token });
  assertEquals([used.status, used.body.error.code], [410, "invite_used"]);
  app.clock.advance(8 * 24 * 3_600_000);
  const expired = await b.post("/api/invites/accept", { token: invB.body.token });
  assertEquals([expired.status, expired.body.error.code], [410, "invite_expired"]);
});

// ---- security ----

dbTest("an invite only works for the email it was sent to", async (app) => {
  const { owner, base } = await setup(app);
  const inv = await owner.post(`${base}/invite`, { email: "someone@example.com", role: "admin" });
  const thief = await signUp(app);
  const r = await thief.post("/api/invites/accept", { token: inv.body.token });
  assertEquals(r.status, 403);
  assertEquals(r.body.error.code, "invite_email_mismatch");
  assertEquals((await thief.get(base)).status, 404);
});

dbTest("GET members: invites are empty unless the caller is admin or owner", async (app) => {
  const { owner, slug, base } = await setup(app);
  await owner.post(`${base}/invite`, { email: "pending@example.com", role: "viewer" });
  for (const role of ["viewer", "editor"] as const) {
    const m = await memberWithRole(app, owner, slug, role);
    const r = await m.get(base);
    assertEquals(r.status, 200);
    assert(r.body.members.length >= 2);
    assertEquals(r.body.invites, [], role);
  }
  const admin = await memberWithRole(app, owner, slug, "admin");
  assertEquals((await admin.get(base)).body.invites.length, 1);
});

dbTest(
  "members/remove: 403 for self-removal and for equal or higher members unless owner",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const admin = await memberWithRole(app, owner, slug, "admin");
    const admin2 = await memberWithRole(app, owner, slug, "admin");
    const editor = await memberWithRole(app, owner, slug, "editor");
    const self = await owner.post(`${base}/remove`, { userId: owner.userId });
    assertEquals(self.status, 403);
    assertMatch(self.body.error.message, /yourself/);
    assertEquals((await admin.post(`${base}/remove`, { userId: admin.userId })).status, 403);
    assertEquals((await admin.post(`${base}/remove`, { userId: admin2.userId })).status, 403);
    assertEquals((await admin.post(`${base}/remove`, { userId: owner.userId })).status, 403);
    assertEquals((await editor.post(`${base}/remove`, { userId: editor.userId })).status, 403);
    assertEquals((await admin.post(`${base}/remove`, { userId: editor.userId })).status, 200);
    assertEquals((await owner.post(`${base}/remove`, { userId: admin2.userId })).status, 200);
  },
);

dbTest(
  "members/remove and update-role: the last owner cannot be removed or demoted",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const root = await signUp(app, ADMIN_EMAIL); // master admin: acts as owner without membership
    const rm = await root.post(`${base}/remove`, { userId: owner.userId });
    assertEquals(rm.status, 403);
    assertMatch(rm.body.error.message, /last owner/);
    const demote = await root.post(`${base}/update-role`, { userId: owner.userId, role: "admin" });
    assertEquals(demote.status, 403);
    assertMatch(demote.body.error.message, /last owner/);
    const second = await memberWithRole(app, owner, slug, "owner");
    assertEquals((await root.post(`${base}/remove`, { userId: owner.userId })).status, 200);
    assertEquals((await second.get(base)).body.members.length, 1);
  },
  { env: { ADMIN_EMAILS: ADMIN_EMAIL } },
);

dbTest(
  "members/update-role: 403 for own role, owner assignment by admins, equal or higher targets",
  async (app) => {
    const { owner, slug, base } = await setup(app);
    const admin = await memberWithRole(app, owner, slug, "admin");
    const admin2 = await memberWithRole(app, owner, slug, "admin");
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const cases: Array<[typeof owner, string, string, RegExp]> = [
      [owner, owner.userId, "admin", /own role/],
      [admin, admin.userId, "owner", /own role/],
      [admin, viewer.userId, "owner", /owner role/],
      [admin, admin2.userId, "viewer", /equal or higher/],
      [admin, owner.userId, "viewer", /equal or higher/],
    ];
    for (const [who, userId, role, why] of cases) {
      const r = await who.post(`${base}/update-role`, { userId, role });
      assertEquals(r.status, 403, `${role} ${why}`);
      assertMatch(r.body.error.message, why);
    }
    assertEquals(
      (await admin.post(`${base}/update-role`, { userId: viewer.userId, role: "admin" })).status,
      200,
      "admins may raise others up to admin",
    );
    assertEquals(
      (await owner.post(`${base}/update-role`, { userId: admin2.userId, role: "owner" })).status,
      200,
    );
  },
);

dbTest("members/invite: 403 when an admin assigns owner or an editor invites", async (app) => {
  const { owner, slug, base } = await setup(app);
  const admin = await memberWithRole(app, owner, slug, "admin");
  const editor = await memberWithRole(app, owner, slug, "editor");
  const esc = await admin.post(`${base}/invite`, { email: "x@example.com", role: "owner" });
  assertEquals(esc.status, 403);
  assertMatch(esc.body.error.message, /owner role/);
  assertEquals(
    (await admin.post(`${base}/invite`, { email: "x@example.com", role: "admin" })).status,
    200,
  );
  assertEquals(
    (await editor.post(`${base}/invite`, { email: "y@example.com", role: "viewer" })).status,
    403,
  );
});

dbTest("an admin of tenant A cannot touch members or invites of tenant B", async (app) => {
  const a = await setup(app);
  const b = await setup(app);
  const bMember = await memberWithRole(app, b.owner, b.slug, "viewer");
  const bInvite = await b.owner.post(`${b.base}/invite`, {
    email: "q@example.com",
    role: "viewer",
  });
  // Through A's slug, B's rows are invisible: 404, and nothing changes in B.
  assertEquals((await a.owner.post(`${a.base}/remove`, { userId: bMember.userId })).status, 404);
  assertEquals(
    (await a.owner.post(`${a.base}/update-role`, { userId: bMember.userId, role: "admin" }))
      .status,
    404,
  );
  assertEquals(
    (await a.owner.post(`${a.base}/revoke-invite`, { inviteId: bInvite.body.id })).status,
    404,
  );
  // Through B's slug, A's owner is not a member: 404 on every route.
  for (
    const [path, body] of [
      ["", undefined],
      ["/invite", { email: "z@example.com", role: "viewer" }],
      ["/remove", { userId: bMember.userId }],
    ] as const
  ) {
    const r = await a.owner.request(body ? "POST" : "GET", `${b.base}${path}`, body);
    assertEquals(r.status, 404, path);
  }
  const still = await b.owner.get(b.base);
  assertEquals(still.body.members.length, 2);
  assertEquals(still.body.invites.length, 1);
});
