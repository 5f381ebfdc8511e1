/**
 * Sign-up, verification and OAuth linking as an attacker would try them: the pre-hijack
 * (an unverified password account squatting someone's address, then that person signing in
 * with a provider), verification tokens that are wrong, reused or expired, resend flooding,
 * and the account of another user left alone throughout (docs/decisions.md "Email
 * verification").
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { BACKENDS, Client, createTenant, createTestApp, signUp, type TestApp } from "./harness.ts";
import { startFakeOAuth } from "./fakes/oauth_server.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { expectRefusals, over } from "./refusals.ts";
import { EMAIL_VERIFICATION_TTL_MS, VERIFY_RESEND_LIMIT } from "../lib/auth/email_verification.ts";

type Fake = ReturnType<typeof startFakeOAuth>;
type Mail = ReturnType<typeof startFakeMail>;

const PASSWORD = "correct horse battery";
const verifyTokenIn = (text: string) => text.match(/cly_evt_[A-Za-z0-9_-]+/)?.[0] ?? "";
const resetTokenIn = (text: string) => text.match(/cly_pwr_[A-Za-z0-9_-]+/)?.[0] ?? "";

async function withWorld(fn: (app: TestApp, fake: Fake, mail: Mail) => Promise<void>) {
  for (const backend of BACKENDS) {
    const fake = startFakeOAuth("cachely-test", "s3cret-client");
    const mail = startFakeMail();
    const app = await createTestApp(backend, {
      env: { ...fake.env("GITHUB"), MAIL_TRANSPORT_URL: mail.url },
    });
    try {
      await fn(app, fake, mail);
    } finally {
      await app.close();
      await fake.close();
      await mail.close();
    }
  }
}

/** The browser's round trip through the fake provider; answers the callback response. */
async function signInWithGitHub(client: Client) {
  const start = await client.get("/auth/oauth/github?next=/dashboard");
  assertEquals(start.status, 302);
  const res = await fetch(start.headers.get("location")!, { redirect: "manual" });
  await res.body?.cancel();
  const back = new URL(res.headers.get("location")!);
  return await client.get(back.pathname + back.search);
}

async function signUpWithMail(app: TestApp, mail: Mail, email: string) {
  const c = await signUp(app, email);
  const sent = mail.sent.filter((m) => m.to === email).at(-1);
  return { client: c, token: verifyTokenIn(sent?.text ?? "") };
}

Deno.test({
  name: "pre-hijack: a squatted unverified account is taken over for the provider-verified owner",
  fn: () =>
    withWorld(async (app, fake) => {
      // A bystander with a tenant of their own: nothing below may touch them.
      const bystander = await signUp(app, "bystander@example.com");
      const bystanderTenant = await createTenant(bystander);

      // The attacker signs up with the victim's address and plants every way back in.
      const attacker = await signUp(app, "victim@example.com");
      const planted = await attacker.post("/api/user/tokens", { name: "backdoor" });
      assertEquals(planted.status, 201);
      const pat = new Client(app);
      pat.bearer = planted.body.token;
      assertEquals((await pat.get("/api/auth/me")).status, 200);
      assertEquals((await attacker.get("/api/auth/me")).body.user.emailVerified, false);

      // The victim signs in with GitHub, which has verified victim@example.com.
      fake.state.identity = { email: "victim@example.com", verified: true };
      const victim = new Client(app);
      const done = await signInWithGitHub(victim);
      assertEquals(done.status, 302);
      const me = (await victim.get("/api/auth/me")).body.user;
      assertEquals(me.email, "victim@example.com");
      assertEquals(me.emailVerified, true);

      // Every key the attacker held is gone: session, API token, password.
      assertEquals((await attacker.get("/api/auth/me")).status, 401);
      assertEquals((await pat.get("/api/auth/me")).status, 401);
      const again = await new Client(app).post("/api/auth/login", {
        email: "victim@example.com",
        password: PASSWORD,
      });
      assertEquals(again.status, 401);
      const tokens = await app.services.dbHandle.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM api_tokens t JOIN users u ON u.id = t.user_id
         WHERE u.email = 'victim@example.com' AND t.revoked_at IS NULL`,
      );
      assertEquals(tokens[0].n, 0);

      // The bystander keeps their session, tenant and unverified state.
      const b = await bystander.get("/api/auth/me");
      assertEquals(b.status, 200);
      assertEquals(b.body.user.emailVerified, false);
      assertEquals((await bystander.get(`/api/tenants/${bystanderTenant}`)).status, 200);
    }),
});

Deno.test({
  name: "pre-hijack: a verified account is linked as before, its password and tokens kept",
  fn: () =>
    withWorld(async (app, fake, mail) => {
      const { client: owner, token } = await signUpWithMail(app, mail, "grace@example.com");
      assertEquals((await owner.post("/api/auth/verify-email", { token })).status, 200);
      const pat = await owner.post("/api/user/tokens", { name: "ci" });
      fake.state.identity = { email: "grace@example.com", verified: true };
      const viaGitHub = new Client(app);
      assertEquals((await signInWithGitHub(viaGitHub)).status, 302);
      assertEquals((await viaGitHub.get("/api/auth/me")).body.user.id, owner.userId);
      // Same owner both ways: nothing revoked.
      assertEquals((await owner.get("/api/auth/me")).status, 200);
      const byPat = new Client(app);
      byPat.bearer = pat.body.token;
      assertEquals((await byPat.get("/api/auth/me")).status, 200);
      const login = await new Client(app).post("/api/auth/login", {
        email: "grace@example.com",
        password: PASSWORD,
      });
      assertEquals(login.status, 200);
    }),
});

Deno.test({
  name: "pre-hijack: an unverified provider email neither links nor takes over",
  fn: () =>
    withWorld(async (app, fake) => {
      const squatter = await signUp(app, "victim@example.com");
      fake.state.identity = { email: "victim@example.com", verified: false };
      const other = new Client(app);
      assertEquals((await signInWithGitHub(other)).status, 403);
      assertEquals((await other.get("/api/auth/me")).status, 401);
      // The account is as it was (the provider proved nothing).
      assertEquals((await squatter.get("/api/auth/me")).status, 200);
    }),
});

Deno.test({
  name: "email verification: the mailed token verifies once; wrong, reused, expired ones are 400",
  fn: () =>
    withWorld(async (app, _fake, mail) => {
      const { client, token } = await signUpWithMail(app, mail, "new@example.com");
      assert(token.startsWith("cly_evt_"), "sign-up mails a verification link");
      assertStringIncludes(mail.sent.at(-1)!.text, `/verify-email?token=${token}`);

      // Only the hash is at rest.
      for await (const e of app.services.kv.list({ prefix: [] })) {
        // Counters are bigints (and KvU64): JSON.stringify refuses those without a replacer.
        const text = JSON.stringify(
          [e.key, e.value],
          (_k, v) => typeof v === "bigint" ? `${v}` : v,
        );
        assert(!text.includes(token), "token stored in clear");
      }

      await expectRefusals(client, [
        { method: "POST", path: "/api/auth/verify-email", body: {}, status: 400, field: "token" },
        {
          method: "POST",
          path: "/api/auth/verify-email",
          body: { token: over(200) },
          status: 400,
          field: "token",
        },
        {
          method: "POST",
          path: "/api/auth/verify-email",
          body: { token: "cly_evt_\u0000" },
          status: 400,
          field: "token",
        },
        {
          method: "POST",
          path: "/api/auth/verify-email",
          body: { token: "cly_evt_wrong" },
          status: 400,
        },
      ]);
      const wrong = await client.post("/api/auth/verify-email", { token: token + "x" });
      assertEquals(wrong.body.error.code, "verification_token_invalid");
      assertEquals((await client.get("/api/auth/me")).body.user.emailVerified, false);

      // Only the account's own session may use it: whoever clicks a squatter's link (or a
      // stranger holding it) must not vouch for the squatter's password. Refused, not spent.
      const anon = new Client(app);
      assertEquals((await anon.post("/api/auth/verify-email", { token })).status, 401);
      const stranger = await signUp(app, "stranger@example.com");
      const foreign = await stranger.post("/api/auth/verify-email", { token });
      assertEquals(foreign.status, 403);
      assertEquals(foreign.body.error.code, "verification_wrong_account");
      assertEquals((await stranger.get("/api/auth/me")).body.user.emailVerified, false);

      const ok = await client.post("/api/auth/verify-email", { token });
      assertEquals(ok.status, 200);
      assertEquals(ok.body, { ok: true, email: "new@example.com" });
      assertEquals((await client.get("/api/auth/me")).body.user.emailVerified, true);
      const reused = await client.post("/api/auth/verify-email", { token });
      assertEquals(reused.status, 400);
      assertEquals(reused.body.error.code, "verification_token_invalid");

      // Expired.
      const { client: slow, token: late } = await signUpWithMail(app, mail, "late@example.com");
      app.clock.advance(EMAIL_VERIFICATION_TTL_MS + 1);
      const expired = await slow.post("/api/auth/verify-email", { token: late });
      assertEquals(expired.status, 400);
      assertEquals(expired.body.error.code, "verification_token_expired");
    }),
});

Deno.test({
  name:
    "email verification: resend needs a session, replaces the token, is throttled, 409 when done",
  fn: () =>
    withWorld(async (app, _fake, mail) => {
      const { client, token: first } = await signUpWithMail(app, mail, "slow@example.com");
      const other = await signUp(app, "other@example.com");
      assertEquals((await new Client(app).post("/api/auth/verify-email/resend", {})).status, 401);

      const r = await client.post("/api/auth/verify-email/resend", {});
      assertEquals(r.status, 200);
      assertEquals(r.body, { ok: true, emailSent: true });
      const second = verifyTokenIn(mail.sent.at(-1)!.text);
      assert(second && second !== first);
      assertEquals(mail.sent.at(-1)!.to, "slow@example.com");
      // The older link stops working once a new one is out.
      const old = await client.post("/api/auth/verify-email", { token: first });
      assertEquals(old.body.error.code, "verification_token_invalid");

      // The resend window: the sign-up mail counts, so the limit is reached sooner.
      const statuses = [];
      for (let i = 0; i < VERIFY_RESEND_LIMIT.limit; i++) {
        statuses.push((await client.post("/api/auth/verify-email/resend", {})).status);
      }
      // sign-up mail + the resend above + one more reach the limit of 3
      assertEquals(statuses, [200, 429, 429]);
      const limited = await client.post("/api/auth/verify-email/resend", {});
      assertEquals(limited.status, 429);
      assert(Number(limited.headers.get("retry-after")) > 0);
      // Another user's budget is their own.
      assertEquals((await other.post("/api/auth/verify-email/resend", {})).status, 200);

      app.clock.advance(VERIFY_RESEND_LIMIT.windowMs + 1);
      const latest = verifyTokenIn(
        mail.sent.filter((m) => m.to === "slow@example.com").at(-1)!.text,
      );
      assertEquals((await client.post("/api/auth/verify-email", { token: latest })).status, 200);
      const done = await client.post("/api/auth/verify-email/resend", {});
      assertEquals(done.status, 409);
      assertEquals(done.body.error.code, "already_verified");
      // The other user is still unverified.
      assertEquals((await other.get("/api/auth/me")).body.user.emailVerified, false);
    }),
});

Deno.test({
  name: "a mailed password reset proves the address: verified, and the squatter's tokens revoked",
  fn: () =>
    withWorld(async (app, _fake, mail) => {
      const squatter = await signUp(app, "owner@example.com");
      const planted = await squatter.post("/api/user/tokens", { name: "backdoor" });
      const anon = new Client(app);
      assertEquals(
        (await anon.post("/api/auth/forgot-password", { email: "owner@example.com" })).status,
        200,
      );
      await app.services.background.idle(); // the reset mail goes out after the answer
      const token = resetTokenIn(mail.sent.at(-1)!.text);
      const reset = await anon.post("/api/auth/reset-password", {
        token,
        password: "a brand new passphrase",
      });
      assertEquals(reset.status, 200);
      const pat = new Client(app);
      pat.bearer = planted.body.token;
      assertEquals((await pat.get("/api/auth/me")).status, 401);
      const owner = new Client(app);
      const login = await owner.post("/api/auth/login", {
        email: "owner@example.com",
        password: "a brand new passphrase",
      });
      assertEquals(login.status, 200);
      assertEquals(login.body.user.emailVerified, true);
    }),
});

Deno.test({
  name: "accepting an invite does not verify: the inviter saw the token, so it proves nothing",
  fn: () =>
    withWorld(async (app) => {
      // The attacker invites the address they squat and accepts with the squatting account.
      const attacker = await signUp(app, "attacker@example.com");
      const slug = await createTenant(attacker);
      const squat = await signUp(app, "victim@example.com");
      const inv = await attacker.post(`/api/tenants/${slug}/members/invite`, {
        email: "victim@example.com",
        role: "viewer",
      });
      assertEquals(inv.status, 200);
      const accepted = await squat.post("/api/invites/accept", { token: inv.body.token });
      assertEquals(accepted.status, 200);
      assertEquals((await squat.get("/api/auth/me")).body.user.emailVerified, false);
    }),
});

Deno.test({
  name: "OAuth takeover: the members and invites the squatter added are shown, then removed",
  fn: () =>
    withWorld(async (app, fake) => {
      const squatter = await signUp(app, "victim@example.com");
      const slug = await createTenant(squatter);
      const friend = await signUp(app, "friend@example.com");
      const inv = await squatter.post(`/api/tenants/${slug}/members/invite`, {
        email: "friend@example.com",
        role: "admin",
      });
      assertEquals(inv.status, 200, inv.text);
      assertEquals(
        (await friend.post("/api/invites/accept", { token: inv.body.token })).status,
        200,
      );
      const pending = await squatter.post(`/api/tenants/${slug}/members/invite`, {
        email: "later@example.com",
        role: "viewer",
      });
      assertEquals(pending.status, 200, pending.text);

      fake.state.identity = { email: "victim@example.com", verified: true };
      const victim = new Client(app);
      assertEquals((await signInWithGitHub(victim)).status, 302);
      const review = (await victim.get("/api/user/takeover-review")).body.review;
      assertEquals(
        review.members.map((m: { email: string; role: string }) => [m.email, m.role]),
        [["friend@example.com", "admin"]],
      );
      assertEquals(review.invites.map((i: { email: string }) => i.email), ["later@example.com"]);
      const page = await victim.get("/account/profile");
      assertStringIncludes(page.text, "data-takeover-review");
      assertStringIncludes(page.text, "friend@example.com");
      // Until the owner confirms, nothing is removed.
      assertEquals((await friend.get(`/api/tenants/${slug}`)).status, 200);

      const confirmed = await victim.post("/api/user/takeover-review/confirm", {});
      assertEquals(confirmed.body, { removedMembers: 1, revokedInvites: 1 });
      assertEquals((await friend.get(`/api/tenants/${slug}`)).status, 404);
      assertEquals((await victim.get("/api/user/takeover-review")).body.review, null);
      const members = (await victim.get(`/api/tenants/${slug}/members`)).body;
      assert(!JSON.stringify(members).includes("friend@example.com"));
      assert(!JSON.stringify(members).includes("later@example.com"));
    }),
});
