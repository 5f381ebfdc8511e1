/**
 * The draft-leak property at a larger scale than the test suite's 10,000 requests
 * (tests/drafts_property.ts): `deno run -A bench/drafts_property.ts [requests] [instances] [seed]`,
 * default 200,000 requests on 4 in-process instances; with `--processes` (and
 * TEST_DATABASE_URL) on real processes of the program, as tests/drafts_instances_test.ts.
 * Prints the run's figures as JSON and exits 1 when any draft answer, draft request to the
 * CMS, stored draft, crossed answer or draft cache entry was seen.
 */
import { draftLeaks, type PropertyStats, runDraftProperty } from "../tests/drafts_property.ts";
import { draftProcesses } from "../tests/fakes/draft_processes.ts";

const processes = Deno.args.includes("--processes");
const [requests = 200_000, instances = 4, seed = Date.now() % 1_000_000] = Deno.args
  .filter((a) => !a.startsWith("--")).map(Number);
let s: PropertyStats;
if (processes) {
  const base = Deno.env.get("TEST_DATABASE_URL");
  if (!base) throw new Error("--processes needs TEST_DATABASE_URL (PostgreSQL)");
  await using world = await draftProcesses(base, instances);
  s = await runDraftProperty({ requests, instances, seed, concurrency: 16, world });
} else {
  s = await runDraftProperty({ requests, instances, seed, concurrency: 16 });
}
console.log(JSON.stringify({ seed, processes, ...s }, null, 2));
Deno.exit(Object.keys(draftLeaks(s)).length > 0 ? 1 : 0);
