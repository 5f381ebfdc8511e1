/**
 * The cache-miss path in process, with an upstream client that answers at once from memory
 * (no sockets): what Cachely's own JavaScript costs per miss, beside a hit and a bare
 * Response (`deno bench -A bench/miss_path_bench.ts`). The upstream request itself is
 * measured by edge/http1's client against a real server (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read").
 */
import { edgeFixture } from "../tests/fakes/upstream.ts";
import { instantUpstream } from "./instant_upstream.ts";
import { jsonBody } from "./origin.ts";

const body = jsonBody();
const instant = instantUpstream(body, [
  ["content-type", "application/json"],
  ["cache-control", "max-age=60"],
  ["last-modified", "Sun, 01 Nov 2026 00:00:00 GMT"],
]);
const fx = await edgeFixture("http://127.0.0.1:9/base", {
  upstream: instant,
  env: { EDGE_CACHE_MAX_BYTES: String(64 * 1024 * 1024) },
});
let k = 0;
const miss = () => fx.request(`/~api/miss/${k++}`);
for (let i = 0; i < 2000; i++) await (await miss()).arrayBuffer();
const hitPath = "/~api/data.json";
for (let i = 0; i < 3; i++) await (await fx.request(hitPath)).arrayBuffer();

Deno.bench("new Response(2 KB, 6 headers)", { group: "miss", baseline: true }, () => {
  new Response(body, {
    headers: [
      ["content-type", "application/json"],
      ["cache-control", "max-age=60"],
      [
        "last-modified",
        "x",
      ],
      ["access-control-allow-origin", "*"],
      ["x-cachely-cache", "MISS"],
      ["x-cache", "MISS"],
    ],
  });
});

Deno.bench(
  "edge.handle(): API miss (upstream answered from memory)",
  { group: "miss" },
  async () => {
    await miss();
  },
);

Deno.bench("edge.handle(): API hit", { group: "miss" }, async () => {
  await fx.request(hitPath);
});
