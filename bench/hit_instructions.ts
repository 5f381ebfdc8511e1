/**
 * In-process cache hits for instruction counting under valgrind (perf is not available on
 * the shared machine; callgrind counts are deterministic where wall clock is not):
 *
 *   valgrind --tool=callgrind --smc-check=all-non-file \
 *     deno run -A bench/hit_instructions.ts <asset|api> <on|off> <hits>
 *
 * Fills the cache, warms up 3,000 hits (so V8 has optimised the path), then serves
 * `<hits>` more through `edge.handle` for one tenant with CDN offload on or off. Run it
 * twice with different `<hits>` and divide the difference of the two totals by the
 * difference of hits: the instructions of one hit, startup and warm-up cancelled out.
 * No sockets: the edge's JavaScript only (the same requests, minus Deno's HTTP server).
 */
import { edgeFixture } from "../tests/fakes/upstream.ts";
import { startAssetHost } from "../tests/fakes/asset_host.ts";
import { startUpstream } from "../tests/fakes/upstream.ts";

const [kind = "asset", offload = "off", n = "1000"] = Deno.args;
const hits = Number(n);
const cdnOffload = offload === "on";
const WARM_UP = 3_000;

const assetHost = startAssetHost();
const api = startUpstream();
api.route(
  "/data.json",
  () => Response.json({ items: [1, 2, 3] }, { headers: { "cache-control": "max-age=60" } }),
);
const fx = await edgeFixture(api.url, {
  env: { IMAGE_HOST_ASSET_ORIGIN: assetHost.url },
  snapshot: { cms: "cloudinary", cloudName: "demo", cdnOffload },
});
const path = kind === "asset" ? "/image/upload/v1/cat.jpg" : "/~api/data.json";

async function hit(): Promise<void> {
  const r = await fx.request(path);
  await r.body?.cancel();
}

await hit(); // the miss
const first = await fx.request(path);
if (first.headers.get("x-cachely-cache") !== "HIT") throw new Error("not a hit");
if ((first.headers.get("cdn-cache-control") !== null) !== cdnOffload && kind === "api") {
  throw new Error("offload headers do not match the tenant setting");
}
await first.body?.cancel();
for (let i = 0; i < WARM_UP + hits; i++) await hit();
fx.close();
await api.close();
await assetHost.close();
