// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * The experiment results table on the Experiments page: every cell sits under the header of
 * its column (data-col on both), and the "Promote winner" form judges the goal the page shows.
 */
import { assert, assertEquals } from "./assert.ts";
import { dbTest, type TestApp } from "./harness.ts";
import { activeExperiment, team } from "./experiments_helpers.ts";

async function seed(app: TestApp, tid: number, eid: number, v: any, n: number, ev: number) {
  await app.services.dbHandle.exec(
    `INSERT INTO exposure_counts (tenant_id, experiment_id, variant_id, variant_key, exposures)
     VALUES (${tid}, ${eid}, ${v.id}, '${v.key}', ${n});
     INSERT INTO experiment_events (tenant_id, experiment_id, variant_id, variant_key, event_name)
     SELECT ${tid}, ${eid}, ${v.id}, '${v.key}', 'signup'
     FROM generate_series(1, ${ev})`,
  );
}

/** The data-col attributes of a row's cells (th or td), in order. */
const cols = (row: string) => [...row.matchAll(/<t[hd][^>]*data-col="([^"]+)"/g)].map((m) => m[1]);

/** The named inputs of the form labelled `label`, as fields a browser would post. */
function formFields(html: string, label: string): Record<string, string> {
  const form = html.match(new RegExp(`<form[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</form>`));
  assert(form, `a form labelled ${label}`);
  const fields: Record<string, string> = {};
  for (const m of form[1].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields[m[1]] = m[2].replaceAll("&amp;", "&").replaceAll("&quot;", '"');
  }
  return fields;
}

dbTest("results: headers and cells agree; promote judges the goal the page shows", async (app) => {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  const [control, casual] = e.variants;
  // Only a "signup" goal was ever sent: the page shows it; casual wins on it (5 % vs 6.75 %).
  await seed(app, t.tenantId, e.id, control, 20_000, 1_000);
  await seed(app, t.tenantId, e.id, casual, 20_000, 1_350);
  const page = await t.owner.get(`/dashboard/${t.slug}/experiments`);
  assertEquals(page.status, 200);
  const table = page.text.match(/aria-label="Results of [^"]*"[^>]*>(<table[\s\S]*?<\/table>)/)![1];
  const rows = [...table.matchAll(/<tr[\s\S]*?<\/tr>/g)].map((m) => m[0]);
  const head = cols(rows[0]);
  assert(head.includes("verdict") && head.includes("errors") && head.includes("p95"), `${head}`);
  for (const row of rows.slice(1)) assertEquals(cols(row), head, "cells in header order");
  assert(page.text.includes('data-goal="signup"'), "the page shows the signup goal");

  const fields = formFields(page.text, `Promote ${casual.key}`);
  const r = await t.owner.request(
    "POST",
    "/forms",
    new URLSearchParams({ ...fields, _confirmed: "1" }).toString(),
    { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
  );
  assertEquals(r.status, 200, r.text);
  const after = await t.owner.get(`/api/tenants/${t.slug}/ai-experiments/${e.id}`);
  assertEquals([after.body.status, after.body.promotedVariantId], ["promoted", casual.id]);
});
