/**
 * The CDN offload check on the hit path, in process (`deno bench -A bench/cdn_offload_bench.ts`):
 * an asset hit and an API hit for a tenant with offload off and one with it on, through
 * `edge.handle` with the production snapshot memo. Wall clock: compare runs interleaved
 * with a checkout of the code before a change, never single figures on a loaded machine.
 */
import { offloadFixtures, PATHS } from "./offload_fixtures.ts";

const { off, on } = await offloadFixtures();
const fixtures = { off, on };

for (const [offload, fx] of Object.entries(fixtures)) {
  for (const [kind, path] of Object.entries(PATHS)) {
    for (let i = 0; i < 3; i++) await (await fx.request(path)).body?.cancel();
    const r = await fx.request(path);
    await r.body?.cancel();
    if (r.headers.get("x-cachely-cache") !== "HIT") throw new Error(`${kind}/${offload}: no hit`);
    Deno.bench(`${kind} hit, offload ${offload}`, { group: kind }, async () => {
      const res = await fx.request(path);
      await res.body?.cancel();
    });
  }
}
