/**
 * Operator settings (server environment names) appear on pages only for master admins: a
 * customer's unconfirmed-email banner on a server without mail, and the Logs and Usage pages,
 * name no setting they cannot change; a master admin's do (data-operator-setting).
 */
import { assert, assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";

const ROOT = "root-ops@example.com";
const SETTINGS = ["MAIL_TRANSPORT_URL", "REQUEST_LOG_SAMPLE_RATE"];

dbTest("operator setting names: master admins only; customers are told to ask", async (app) => {
  const customer = await signUp(app);
  const slug = await createTenant(customer);
  const root = await signUp(app, ROOT);
  for (const area of ["", "/logs", "/usage"]) {
    const path = `/dashboard/${slug}${area}`;
    const page = await customer.get(path);
    assertEquals(page.status, 200, path);
    for (const name of SETTINGS) assert(!page.text.includes(name), `${path} names ${name}`);
    assert(!page.text.includes("data-operator-setting"), path);
    const banner = page.text.match(/<div[^>]*data-verify-email[^>]*>/);
    assert(banner, `${path}: the unconfirmed-email banner`);
    assert(banner[0].includes('data-mail="unavailable"'), banner[0]);
  }
  const admin = await root.get(`/dashboard/${slug}/logs`);
  assertEquals(admin.status, 200);
  const named = [...admin.text.matchAll(/data-operator-setting="([A-Z_]+)"/g)].map((m) => m[1]);
  assertEquals(new Set(named), new Set(SETTINGS));
}, { env: { ADMIN_EMAILS: ROOT } });
