/**
 * In-process cache hits for instruction counting under valgrind (perf is not available on
 * the shared machine; callgrind counts are deterministic where wall clock is not):
 *
 *   valgrind --tool=callgrind --smc-check=all-non-file --dump-before=getifaddrs \
 *     deno run -A bench/hit_instructions.ts [hits] [--age]
 *
 * Two tenants (CDN offload off and on), each with a cached asset and a cached API
 * response; every (kind, tenant) pair is warmed up with 2,000 hits so V8 has optimised
 * the path, then measured in its own phase of `hits` hits (default 10,000) served through
 * `edge.handle`. `Deno.networkInterfaces()` (libc getifaddrs, called by nothing else; Deno 2.9
 * reads /proc/loadavg itself, so `Deno.loadavg()` no longer reaches libc) marks the
 * phase boundaries, so callgrind writes one dump per phase: startup and warm-up in
 * `.1`, then asset/off, api/off, asset/on, api/on in `.2`–`.5`. Divide a phase's
 * instructions by `hits`. No sockets: the edge's JavaScript only, not Deno's HTTP server.
 * `--age`: the fixtures' clock moves 5 s on after the misses, so every hit carries `Age: 5`.
 */
import { offloadFixtures, PATHS } from "./offload_fixtures.ts";

const args = Deno.args.filter((a) => a !== "--age");
const aged = args.length < Deno.args.length;
const hits = Number(args[0] ?? 10_000);
const WARM_UP = 2_000;

// valgrind slows the in-process fakes too: a miss must not time out
const fixtures = await offloadFixtures({ UPSTREAM_TIMEOUT_MS: "120000" });
const { off, on } = fixtures;

type Fx = typeof off;
async function hit(fx: Fx, path: string): Promise<Response> {
  const r = await fx.request(path);
  await r.body?.cancel();
  return r;
}

const phases: [string, Fx, string][] = [
  ["asset, offload off", off, PATHS.asset],
  ["api, offload off", off, PATHS.api],
  ["asset, offload on", on, PATHS.asset],
  ["api, offload on", on, PATHS.api],
];
for (const [, fx, path] of phases) await hit(fx, path); // the misses
if (aged) { for (const fx of [off, on]) fx.clock.advance(5_000); }
for (const [label, fx, path] of phases) {
  let r = await hit(fx, path);
  for (let i = 0; i < 5 && r.headers.get("x-cachely-cache") !== "HIT"; i++) r = await hit(fx, path);
  if (r.headers.get("x-cachely-cache") !== "HIT") throw new Error(`${label}: not a hit`);
  for (let i = 0; i < WARM_UP; i++) await hit(fx, path);
  console.log(
    `${label}: cdn-cache-control ${r.headers.get("cdn-cache-control")}, age ${
      r.headers.get("age")
    }`,
  );
}
for (const [label, fx, path] of phases) {
  Deno.networkInterfaces(); // phase boundary (callgrind --dump-before=getifaddrs)
  const t0 = performance.now();
  for (let i = 0; i < hits; i++) await hit(fx, path);
  // wall clock, for a run outside valgrind (noisy on a shared machine)
  console.log(`${label}: ${((performance.now() - t0) * 1000 / hits).toFixed(2)} µs per hit`);
}
Deno.networkInterfaces();
await fixtures.close();
