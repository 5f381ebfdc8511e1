/**
 * Proof by property (docs/providers.md "Draft switches"): 10,000 generated visitor requests
 * on 3 edge instances get no draft, the CMS is never asked for one, and no cache entry holds
 * draft bytes. A failure names the seed; DRAFTS_SEED replays it. The larger run is
 * bench/drafts_property.ts.
 */
import { assert, assertEquals } from "./assert.ts";
import { draftLeaks, runDraftProperty } from "./drafts_property.ts";

Deno.test("10,000 generated requests on 3 instances: 0 drafts without a valid link, none cached, none crossed", async () => {
  const seed = Number(Deno.env.get("DRAFTS_SEED") ?? 20261127);
  const s = await runDraftProperty({ requests: 10_000, instances: 3, seed });
  const why = `seed ${seed}: ${JSON.stringify(s)}`;
  console.log(why);
  assertEquals(s.draftEntries >= 0, true, "in process every cache entry is read");
  assertEquals(draftLeaks(s), {}, why);
  assert(s.storedAnswers > 10, why);
  assert(s.previewDrafts > 100, why); // valid links do open drafts
  // the run exercised both sides: refusals and served (cached) published answers
  assert((s.byStatus["400"] ?? 0) > 1_000, why);
  assert((s.byStatus["200"] ?? 0) > 1_000, why);
  assert(s.cacheEntries > 10, why);
});
