/**
 * The Assets page shows the API origin the edge uses: the configured one when a tenant set
 * its own, else the one derived from the provider's identifier (data-api-origin says which).
 */
import { assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";

/** The API origin row of the page's origins list: its data-api-origin and its code. */
function apiOriginRow(html: string) {
  const m = html.match(/<dd data-api-origin="([a-z]+)"><code>([^<]*)<\/code><\/dd>/);
  return m ? [m[1], m[2]] : null;
}

dbTest("Assets page: the effective API origin, configured before derived", async (app) => {
  const owner = await signUp(app);
  const origin = "http://127.0.0.1:9";
  const slug = await createTenant(owner, { apiOrigin: origin });
  const page = await owner.get(`/dashboard/${slug}/assets`);
  assertEquals(page.status, 200);
  assertEquals(apiOriginRow(page.text), ["configured", origin]);
});
