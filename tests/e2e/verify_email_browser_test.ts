/**
 * Email verification in Chromium: sign-up shows the banner on the dashboard, "Mail a new
 * link" sends one, the mailed link asks a visitor who is not logged in to log in (or to
 * reset the password if they never signed up), and confirming while logged in removes the
 * banner. The same with JavaScript off (the form bridge).
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { startFakeMail } from "../fakes/mail.ts";
import { browserApp, CHROMIUM, getAsPage, hasChromium, inCi } from "./browser.ts";

const PASSWORD = "correct horse battery";
const linkIn = (text: string) => text.match(/https?:\/\/\S+\/verify-email\?token=\S+/)?.[0] ?? "";

Deno.test({
  name: "email verification in Chromium: banner, resend, link needs the owner's session, confirm",
  ignore: !hasChromium && !inCi,
  sanitizeResources: false, // Chromium is a child process: Playwright's pipe to it settles after browser.close()
  sanitizeOps: false,
  async fn() {
    if (!hasChromium) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
    const mail = startFakeMail();
    const ba = await browserApp({ MAIL_TRANSPORT_URL: mail.url });
    const { origin, browser, problems, watch } = ba;
    const banner = (page: Page) => page.locator("[data-verify-email]");
    const signUpIn = async (page: Page, email: string) => {
      await page.goto(`${origin}/signup?next=%2Fdashboard`);
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForURL(`${origin}/dashboard`);
    };
    try {
      // 1. With JavaScript: sign up, banner, resend, then the link opened logged out and in.
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      watch(page);
      await signUpIn(page, "mia@example.com");
      assertStringIncludes(await banner(page).textContent() ?? "", "mia@example.com");
      const firstLink = linkIn(mail.sent.at(-1)?.text ?? "");
      assert(firstLink.startsWith(`${origin}/verify-email?token=cly_evt_`), firstLink);

      await page.click('form[aria-label="Resend the verification mail"] button');
      await page.waitForFunction(() =>
        document.querySelector("#announce")?.textContent?.includes("on its way")
      );
      assertEquals(mail.sent.length, 2);
      const link = linkIn(mail.sent[1].text);
      assert(link && link !== firstLink);

      const stranger = await browser.newContext();
      const out = await stranger.newPage();
      watch(out);
      await out.goto(link);
      const asked = await out.textContent("main") ?? "";
      assertStringIncludes(asked, "Log in");
      assertStringIncludes(asked, "reset the password");
      await stranger.close();

      await page.goto(link);
      await page.click('form[aria-label="Confirm email address"] button');
      await page.waitForURL(`${origin}/dashboard`);
      assertEquals(await banner(page).count(), 0, "no banner once confirmed");
      const me = await (await getAsPage(page, `${origin}/api/auth/me`)).json();
      assertEquals(me.user.emailVerified, true);
      await ctx.close();

      // 2. Without JavaScript: the same through the form bridge.
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      const plain = await noJs.newPage();
      await signUpIn(plain, "noah@example.com");
      assertEquals(await banner(plain).count(), 1);
      await plain.goto(linkIn(mail.sent.at(-1)!.text));
      await plain.click('form[aria-label="Confirm email address"] button');
      await plain.waitForURL(`${origin}/dashboard`);
      assertStringIncludes(await plain.textContent("#announce") ?? "", "confirmed");
      assertEquals(await banner(plain).count(), 0);
      await noJs.close();
      assertEquals(problems, [], "no script or CSP errors");
    } finally {
      await ba.close();
      await mail.close();
    }
  },
});
