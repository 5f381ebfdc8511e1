/**
 * The money figure: origin bandwidth the cache saved this month, priced at the CMS's published
 * per-GB overage price, on the Overview and the Usage page; a CMS without a known price shows
 * none rather than a made-up number.
 */
import { assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The `data-savings` figure of a page, or null when it has none. */
const savings = (html: string) => html.match(/data-savings="([^"]*)"/)?.[1] ?? null;

dbTest("estimated savings: bandwidth saved this month at the CMS's price per GB", async (app) => {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const ctf = await createTenant(owner, { cms: "contentful", spaceId: "abc123xyz" });
  const generic = await createTenant(owner);
  for (const slug of [ctf, generic]) {
    // 120 GB served, 20 GB of it fetched from the origin: 100 GB saved
    await app.services.dbHandle.exec(
      `INSERT INTO usage_daily (tenant_id, day, requests, bytes, origin_requests, origin_bytes)
       VALUES (${await tenantIdOf(app, slug)}, '2026-11-20', 1000, 120000000000, 100, 20000000000)`,
    );
  }
  for (const path of [`/dashboard/${ctf}`, `/dashboard/${ctf}/usage`]) {
    const page = (await owner.get(path)).text;
    assertEquals(savings(page), "15.00 USD", path); // 100 GB × 0.15 USD (Contentful)
    assertEquals(
      page.includes("0.15 USD/GB (Contentful&#39;s price)") ||
        page.includes("0.15 USD/GB (Contentful's price)"),
      true,
      path,
    );
  }
  assertEquals(savings((await owner.get(`/dashboard/${generic}`)).text), null);
});
