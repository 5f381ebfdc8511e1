/**
 * What a cached entry costs on the JS heap, measured: 100,000 entries of a full cache are
 * 100,000 of these, and every byte of them is also promoted through V8's young generation
 * when a burst of misses fills the cache (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read").
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { cachedObject, EdgeCache } from "./store.ts";
import { apiKey } from "./keys.ts";

/** Header pairs as the upstream client hands them over: fresh strings for every response. */
const fresh = (s: string) => s.split("").join("");
// Not a compressible type: this measures the entry itself; compressed copies of a JSON body are
// charged to the bound on top (edge/cache/variants.ts COPY_COST).
const upstreamHeaders = (): [string, string][] => [
  [fresh("content-type"), fresh("application/octet-stream")],
  [fresh("cache-control"), fresh("max-age=60")],
  [fresh("vary"), fresh("Accept-Encoding")],
];

/**
 * A JSON answer as an origin sends it: compressible (copies are made on its first hit) and with
 * the origin's Date, which changes once a second (here every 1,000 answers).
 */
const jsonHeaders = (i: number): [string, string][] => [
  [fresh("content-type"), fresh("application/json")],
  [fresh("cache-control"), fresh("max-age=60")],
  [fresh("date"), fresh(new Date(1.8e12 + Math.floor(i / 1000) * 1000).toUTCString())],
];

/** Heap bytes per entry of `n` cached 2 KB entries (JSON ones: `json`); needs --expose-gc. */
function heapPerEntry(n: number, json = false): number {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const cache = new EdgeCache({ maxBytes: 1024 ** 3, clock: { now: () => 0 }, webCacheName: null });
  const origin = "http://bench.localhost:8000";
  gc();
  const before = Deno.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) {
    const key = apiKey(1, 1, origin, `/miss/full-0-abcdef12-${i}`, "");
    const body = new Uint8Array(2048).fill(i & 0xff);
    const headers = json ? jsonHeaders(i) : upstreamHeaders();
    cache.store(key, cachedObject(200, headers, body, 1.8e12 + i, 60_000));
  }
  gc();
  assertEquals(cache.lru.count, n);
  return (Deno.memoryUsage().heapUsed - before) / n;
}

// Run with --expose-gc in a process of its own: Deno 2.5 exposes no gc() to a context made
// after v8.setFlagsFromString("--expose-gc"), which is how this test got one before.
if (import.meta.main) console.log(heapPerEntry(Number(Deno.args[0]), Deno.args[1] === "json"));

async function measured(kind: "bytes" | "json"): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", import.meta.filename!, "20000", kind],
    stderr: "inherit",
  }).output();
  assert(out.success, "the measuring process failed");
  return Number(new TextDecoder().decode(out.stdout));
}

Deno.test("a cached 2 KB entry costs at most 348 heap bytes (key, index, object)", async () => {
  const perEntry = await measured("bytes");
  // A list node, a Uint8Array view and a header list per entry made it ~500 bytes.
  // 332 before the slot for compressed copies (edge/cache/variants.ts) took 8 more.
  assert(perEntry <= 348, `${perEntry.toFixed(0)} heap bytes per entry`);
});

Deno.test("a cached 2 KB JSON entry with its origin's Date costs no more, until it is hit", async () => {
  // Its Date pair and header list are shared with the answers of the same second, and its
  // compressed copies' record with every entry not hit yet: ~170 and ~90 bytes more before.
  const perEntry = await measured("json");
  assert(perEntry <= 348, `${perEntry.toFixed(0)} heap bytes per entry`);
});
