/**
 * Self-service password reset: POST /api/auth/forgot-password and the /forgot-password
 * and /reset-password pages (with and without JavaScript).
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTestApp, dbTest, signUp, type TestApp } from "./harness.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { FORGOT_LIMITS } from "../lib/auth/forgot_password.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const tokenIn = (text: string) => text.match(/cly_pwr_[A-Za-z0-9_-]+/)?.[0] ?? "";

async function withMail(
  app: TestApp,
  fn: (app: TestApp, mail: ReturnType<typeof startFakeMail>) => Promise<void>,
  delayMs = 0,
) {
  const mail = startFakeMail({ delayMs });
  const mailed = await createTestApp(app.backend, {
    env: { MAIL_TRANSPORT_URL: mail.url, ADMIN_EMAILS: "root@example.com" },
  });
  try {
    await fn(mailed, mail);
  } finally {
    await mailed.close();
    await mail.close();
  }
}

dbTest(
  "POST /api/auth/forgot-password mails a working link and keeps live sessions",
  (app) =>
    withMail(app, async (app, mail) => {
      const user = await signUp(app);
      mail.clear(); // the sign-up's verification mail
      const r = await new Client(app).post("/api/auth/forgot-password", {
        email: user.email.toUpperCase(),
      });
      assertEquals(r.status, 200);
      assertEquals(r.body, { ok: true });
      await app.services.background.idle(); // the mail goes out after the answer
      assertEquals(mail.sent.length, 1);
      assertEquals(mail.sent[0].to, user.email);
      const token = tokenIn(mail.sent[0].text);
      assert(token.length > 20, "the mail carries the token");
      assertEquals((await user.get("/api/auth/me")).status, 200, "asking logs nobody out");
      const done = await new Client(app).post("/api/auth/reset-password", {
        token,
        password: "a brand new passphrase",
      });
      assertEquals(done.status, 200);
      const login = await new Client(app).post("/api/auth/login", {
        email: user.email,
        password: "a brand new passphrase",
      });
      assertEquals(login.status, 200);
    }),
);

dbTest(
  "forgot-password answers the same for unknown and blocked addresses, without mail",
  (app) =>
    withMail(app, async (app, mail) => {
      const r = await new Client(app).post("/api/auth/forgot-password", {
        email: "nobody@example.com",
      });
      assertEquals(r.status, 200);
      assertEquals(r.body, { ok: true });
      await app.services.background.idle();
      assertEquals(mail.sent.length, 0);
      const root = await signUp(app, "root@example.com");
      const user = await signUp(app);
      mail.clear(); // the sign-ups' verification mails
      const block = await root.post(`/api/admin/users/${user.userId}/block`, { blocked: true });
      assertEquals(block.status, 200);
      const blocked = await new Client(app).post("/api/auth/forgot-password", {
        email: user.email,
      });
      assertEquals(blocked.body, { ok: true });
      await app.services.background.idle();
      assertEquals(mail.sent.length, 0, "a blocked account gets no reset mail");
      const bad = await new Client(app).post("/api/auth/forgot-password", { email: "nope" });
      assertEquals(bad.status, 400);
      assertStringIncludes(bad.body.error.message, "email");
    }),
);

dbTest(
  "forgot-password takes no longer for a registered address: the mail is sent after the answer",
  (app) =>
    withMail(app, async (app, mail) => {
      const users = [await signUp(app), await signUp(app), await signUp(app)];
      const anon = new Client(app);
      const timed = async (email: string) => {
        const t0 = performance.now();
        const r = await anon.post("/api/auth/forgot-password", { email });
        assertEquals(r.body, { ok: true });
        return performance.now() - t0;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (const [i, u] of users.entries()) {
        known.push(await timed(u.email));
        unknown.push(await timed(`nobody${i}@example.com`));
      }
      const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(", ");
      // The mail provider takes 400 ms per message: an answer that waited for it shows it.
      assert(Math.max(...known) < 300, `known ${ms(known)} ms; unknown ${ms(unknown)} ms`);
      await app.services.background.idle();
      assertEquals(mail.sent.filter((m) => m.subject.includes("Reset")).length, users.length);
    }, 400),
);

dbTest(
  "forgot-password: a few mails per address, then silence; 429 per IP",
  (app) =>
    withMail(app, async (app, mail) => {
      const user = await signUp(app);
      mail.clear(); // the sign-up's verification mail
      const anon = new Client(app);
      for (let i = 0; i < FORGOT_LIMITS.perEmail.limit + 2; i++) {
        const r = await anon.post("/api/auth/forgot-password", { email: user.email });
        assertEquals(r.status, 200);
      }
      await app.services.background.idle();
      assertEquals(mail.sent.length, FORGOT_LIMITS.perEmail.limit);
      let last = 200;
      for (let i = 0; i < FORGOT_LIMITS.perIp.limit; i++) {
        last =
          (await anon.post("/api/auth/forgot-password", { email: `x${i}@example.com` })).status;
      }
      assertEquals(last, 429);
    }),
);

dbTest(
  "GET /forgot-password: a form that posts; without JavaScript the post answers a page",
  async (app) => {
    const anon = new Client(app);
    const page = await anon.get("/forgot-password");
    assertEquals(page.status, 200);
    const tag = page.text.match(/<form[^>]*>/)?.[0] ?? "";
    assertStringIncludes(tag, 'method="post"');
    assertStringIncludes(tag, 'action="/forgot-password"');
    const sent = await anon.post("/forgot-password", "email=someone%40example.com", FORM);
    assertEquals(sent.status, 200);
    assertStringIncludes(sent.text, "reset link is on its way");
    const bad = await anon.post("/forgot-password", "email=nope", FORM);
    assertEquals(bad.status, 400);
    assertStringIncludes(bad.text, "Invalid email");
    assertStringIncludes((await anon.get("/login")).text, 'href="/forgot-password"');
  },
);

dbTest("POST /reset-password without JavaScript: a bad token shows why, in place", async (app) => {
  const r = await new Client(app).post(
    "/reset-password?token=cly_pwr_unknown",
    "password=a+brand+new+passphrase",
    FORM,
  );
  assertEquals(r.status, 400);
  assertStringIncludes(r.text, "Invalid token");
  assertStringIncludes(r.text, 'action="/reset-password?token=cly_pwr_unknown"');
});
