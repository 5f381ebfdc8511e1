/**
 * Hits over many keys in process: one hot key against a Zipf draw (s = 1) over 10,000
 * keys, every key cached and templated first (`deno bench -A bench/zipf_path_bench.ts`).
 * What a hit costs Cachely's JavaScript once the working set is larger than one object:
 * the wrk Zipf row in bench/RESULTS.md also carries wrk's script and the kernel.
 */
import { edgeFixture } from "../tests/fakes/upstream.ts";
import { instantUpstream } from "./instant_upstream.ts";
import { jsonBody } from "./origin.ts";

const KEYS = 10_000;
const body = jsonBody();
const instant = instantUpstream(body, [
  ["content-type", "application/json"],
  ["cache-control", "max-age=600"],
]);
const fx = await edgeFixture("http://127.0.0.1:9/base", {
  upstream: instant,
  env: { EDGE_CACHE_MAX_BYTES: String(256 * 1024 * 1024) },
  snapshot: { cacheTtl: 600 },
});
const paths = Array.from({ length: KEYS }, (_, i) => `/~api/zipf-${i + 1}`);
// three passes: a miss, a first hit, a hit that builds the template
for (let pass = 0; pass < 3; pass++) {
  for (const p of paths) await (await fx.request(p)).arrayBuffer();
}
// a fixed Zipf sequence, drawn once (the draw is not what is measured)
const cum: number[] = [];
let total = 0;
for (let k = 1; k <= KEYS; k++) cum.push(total += 1 / k);
const draws = Array.from({ length: 65_536 }, () => {
  const x = Math.random() * total;
  let lo = 0, hi = KEYS - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return paths[lo];
});
let i = 0;

Deno.bench("hit, one key", { group: "hit", baseline: true }, async () => {
  await fx.request(paths[0]);
});

Deno.bench("hit, Zipf over 10,000 keys", { group: "hit" }, async () => {
  await fx.request(draws[i++ & 65_535]);
});
