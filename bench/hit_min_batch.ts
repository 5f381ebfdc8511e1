/**
 * Cache hits in process, timed as the fastest of many short batches
 * (`deno run -A bench/hit_min_batch.ts [batches] [hits per batch]`): on a machine shared
 * with other work, a batch that ran without being preempted shows the code's own cost,
 * where a mean shows the machine's load. Asset and API hits, CDN offload off and on,
 * through `edge.handle` with the production snapshot memo; prints ns per hit.
 */
import { offloadFixtures, PATHS } from "./offload_fixtures.ts";

const batches = Number(Deno.args[0] ?? 300);
const perBatch = Number(Deno.args[1] ?? 200);
const fx = await offloadFixtures();
const fixtures = { off: fx.off, on: fx.on };

for (const [kind, path] of Object.entries(PATHS)) {
  for (const [offload, fx] of Object.entries(fixtures)) {
    for (let i = 0; i < 1000; i++) await (await fx.request(path)).body?.cancel();
    let best = Infinity;
    for (let b = 0; b < batches; b++) {
      const t0 = performance.now();
      for (let i = 0; i < perBatch; i++) {
        const r = await fx.request(path);
        await r.body?.cancel();
      }
      best = Math.min(best, performance.now() - t0);
    }
    console.log(`${kind} hit, offload ${offload}: ${Math.round(best * 1e6 / perBatch)} ns`);
  }
}
await fx.close();
