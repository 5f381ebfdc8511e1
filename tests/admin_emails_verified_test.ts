/**
 * ADMIN_EMAILS on a server others can reach: whoever signs up first with a listed address
 * must not get the admin console before proving the address; once the mailed link is
 * followed, it counts (docs/decisions.md "Email verification").
 */
import { assertEquals } from "./assert.ts";
import { BACKENDS, createTestApp, signUp } from "./harness.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { loadConfig } from "../lib/config.ts";

const ROOT = "root@example.com";

Deno.test("ADMIN_EMAILS needs a verified address unless the server listens on loopback", () => {
  const need = (env: Record<string, string>) =>
    loadConfig({ ENCRYPTION_KEY: btoa("0123456789abcdef0123456789abcdef"), ...env })
      .adminEmailsNeedVerification;
  assertEquals(need({}), true, "default HOST 0.0.0.0");
  assertEquals(need({ HOST: "127.0.0.1" }), false);
  assertEquals(need({ HOST: "::1" }), false);
  assertEquals(need({ HOST: "127.0.0.1", ADMIN_EMAILS_REQUIRE_VERIFIED: "true" }), true);
  assertEquals(need({ ADMIN_EMAILS_REQUIRE_VERIFIED: "false" }), false);
});

Deno.test({
  name: "an unverified ADMIN_EMAILS sign-up is refused the admin API until it verifies",
  fn: async () => {
    for (const backend of BACKENDS) {
      const mail = startFakeMail();
      const app = await createTestApp(backend, {
        env: {
          ADMIN_EMAILS: ROOT,
          ADMIN_EMAILS_REQUIRE_VERIFIED: "true",
          MAIL_TRANSPORT_URL: mail.url,
        },
      });
      try {
        const squatter = await signUp(app, ROOT);
        const me = await squatter.get("/api/auth/me");
        assertEquals(me.body.user.isAdmin, false, `[${backend}] unverified is not admin`);
        assertEquals((await squatter.get("/api/admin/overview")).status, 403, `[${backend}]`);
        const overview = await squatter.get("/admin");
        assertEquals(overview.status, 403, `[${backend}] admin console page`);

        const token = mail.sent.find((m) => m.to === ROOT)?.text.match(/cly_evt_[A-Za-z0-9_-]+/)
          ?.[0];
        assertEquals(typeof token, "string", "sign-up mails a verification link");
        assertEquals((await squatter.post("/api/auth/verify-email", { token })).status, 200);

        assertEquals((await squatter.get("/api/auth/me")).body.user.isAdmin, true, `[${backend}]`);
        const ok = await squatter.get("/api/admin/overview");
        assertEquals(ok.status, 200, `[${backend}] verified address is admin`);
        assertEquals(ok.body.users.admins, 1, `[${backend}] counted once verified`);
        const listed = await squatter.get(`/api/admin/users?q=${encodeURIComponent(ROOT)}`);
        assertEquals(listed.status, 200, `[${backend}] ${listed.text}`);
        assertEquals(
          listed.body.users.map((u: { email: string; isAdmin: boolean }) => [u.email, u.isAdmin]),
          [[ROOT, true]],
          `[${backend}] the user list shows the verified ADMIN_EMAILS admin as admin`,
        );
      } finally {
        await app.close();
        await mail.close();
      }
    }
  },
});

Deno.test({
  name: "the verification banner says a link was mailed only when the server can send mail",
  fn: async () => {
    const backend = BACKENDS[0];
    const mail = startFakeMail();
    const withMail = await createTestApp(backend, { env: { MAIL_TRANSPORT_URL: mail.url } });
    const without = await createTestApp(backend);
    try {
      const a = await (await signUp(withMail)).get("/dashboard");
      assertEquals(a.status, 200);
      assertEquals(a.text.includes("We mailed a link"), true, "mail configured");
      const b = await (await signUp(without)).get("/dashboard");
      assertEquals(b.status, 200);
      assertEquals(b.text.includes("We mailed a link"), false, "no transport: no such claim");
      assertEquals(b.text.includes('data-mail="unavailable"'), true, "the banner says no mail");
    } finally {
      await withMail.close();
      await without.close();
      await mail.close();
    }
  },
});
