/** The dashboard's quota banner and per-tenant month figures (this month, last month). */
import { assert, assertStringIncludes } from "./assert.ts";
import { createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { ManualClock } from "../lib/clock.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { mail, quotaEnv } from "./quota_helpers.ts";
import { at } from "./quota_helpers.ts";
import { memberWithRole } from "./roles.ts";
import { PLAN_PAGE } from "../lib/errors.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const opts = () => ({
  env: quotaEnv(mail.url),
  clock: new ManualClock(T0),
});

dbTest(
  "the dashboard shows the month's use against the plan and each tenant's month",
  at(T0, async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const quiet = await owner.get("/dashboard");
    assertStringIncludes(quiet.text, 'data-quota-level="0"');
    await seedUsageDays(app, await tenantIdOf(app, slug), [
      { day: "2026-11-03", requests: 9, bytes: 1_234 },
      { day: "2026-10-30", requests: 4_321, bytes: 777 },
    ]);
    const warned = await owner.get("/dashboard");
    assertStringIncludes(warned.text, 'data-quota-level="80"');
    assertStringIncludes(warned.text, "9 of 10 requests");
    assertStringIncludes(warned.text, "Requests (2026-11)");
    assert(
      /data-month-requests[^>]*>9</.test(warned.text),
      warned.text.match(/data-month-requests[^<]*</)?.[0],
    );
    const page = await owner.get(`/dashboard/${slug}`);
    assertStringIncludes(page.text, "Requests, 2026-11");
    assertStringIncludes(page.text, "Requests, 2026-10");
    assertStringIncludes(page.text, "4,321");
    await seedUsageDays(app, await tenantIdOf(app, slug), [{
      day: "2026-11-04",
      requests: 1,
      bytes: 0,
    }]);
    const paused = await owner.get("/dashboard");
    assertStringIncludes(paused.text, 'data-quota-level="100"');
    assertStringIncludes(paused.text, "paused until 2026-12-01");
  }),
  opts(),
);

dbTest(
  "a paused account shows on the tenant's Overview and Usage: the owner's banner links to the plans, a member sees only the pause",
  at(T0, async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const quiet = await owner.get(`/dashboard/${slug}`);
    assert(!quiet.text.includes("data-quota-level"), "no notice below 80 %");
    await seedUsageDays(app, await tenantIdOf(app, slug), [
      { day: "2026-11-03", requests: 10, bytes: 0 },
    ]);
    for (const path of [`/dashboard/${slug}`, `/dashboard/${slug}/usage`]) {
      const mine = await owner.get(path);
      assertStringIncludes(mine.text, 'data-quota-level="100"');
      assertStringIncludes(mine.text, `<a href="${PLAN_PAGE}">Upgrade to pro</a>`);
      const theirs = await viewer.get(path);
      assertStringIncludes(theirs.text, 'data-quota-level="100"');
      assertStringIncludes(theirs.text, "visitors get 429");
      assert(!theirs.text.includes("10 of 10 requests"), "the owner's use stays the owner's");
    }
  }),
  opts(),
);
