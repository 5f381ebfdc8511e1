/**
 * The draft-leak property (tests/drafts_property.ts) on real processes of the program: 3
 * instances over one database and one KV file share each tenant's preview-link secret (made
 * by the control plane, carried in the snapshot), each with its own cache. 10,000 generated
 * requests spread over them: 0 drafts without a valid link, none stored, none crossed, and
 * afterwards every URL visitors were served (and every preview URL without its link) asked
 * again on every instance gets no draft. Skips without TEST_DATABASE_URL. A failure names
 * the seed; DRAFTS_SEED replays it.
 */
import { assert, assertEquals } from "./assert.ts";
import { draftLeaks, runDraftProperty } from "./drafts_property.ts";
import { draftProcesses } from "./fakes/draft_processes.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) {
  console.log("drafts_instances_test: skipped: TEST_DATABASE_URL is not set (no PostgreSQL)");
}

Deno.test({
  name:
    "10,000 generated requests on 3 real processes: 0 drafts without a valid link, none stored, none crossed",
  ignore: !BASE,
  sanitizeOps: false, // child processes: their pipes' readers settle after stop()
  sanitizeResources: false,
  async fn() {
    const seed = Number(Deno.env.get("DRAFTS_SEED") ?? 20261128);
    await using world = await draftProcesses(BASE!, 3);
    const s = await runDraftProperty({ requests: 10_000, instances: 3, seed, world });
    const why = `seed ${seed}: ${JSON.stringify(s)}`;
    console.log(why);
    assertEquals(draftLeaks(s), {}, why);
    assert(s.previewDrafts > 100, why); // valid links do open drafts, on real processes too
    assert((s.byStatus["400"] ?? 0) > 1_000 && (s.byStatus["200"] ?? 0) > 1_000, why);
    assert(s.storedAnswers > 10 && s.replays > 100, why);
    // the CMS was reached by its host names over TLS, preview host included
    for (const host of ["api.storyblok.com", "preview.contentful.com", "pr0j.api.sanity.io"]) {
      assert((world.tunnels.get(host) ?? 0) > 0, `${host}: ${JSON.stringify([...world.tunnels])}`);
    }
  },
});
