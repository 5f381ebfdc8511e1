/**
 * The edge's purge check (edge/cache/purges.ts): what each kind of purge entry matches, and
 * that a hit's cost does not grow with the number of purge records (an index, not a scan).
 */
import { assert, assertEquals } from "./assert.ts";
import { lastPurgeMatching, PurgeIndex } from "../edge/cache/purges.ts";
import { cachedObject } from "../edge/cache/object.ts";
import { apiKey, assetKey, siteKey } from "../edge/cache/keys.ts";
import { variantKey } from "../edge/cache/vary.ts";
import type { PurgeRecord } from "../lib/kv/snapshot.ts";

const T = 3;
const origin = "http://t.localhost:8000";
const obj = (storedAt: number, tags?: string) =>
  cachedObject(
    200,
    tags ? [["cache-tag", tags]] : [],
    new Uint8Array([1]),
    storedAt,
    60_000,
  );
const rec = (at: number, r: Partial<PurgeRecord>): PurgeRecord => ({
  at,
  urls: [],
  prefixes: [],
  tags: [],
  ...r,
});

Deno.test("purge index: urls, queries, prefixes, tags and time", () => {
  const ix = new PurgeIndex();
  ix.sync(T, [
    rec(100, { urls: ["/~api/a?x=1", "/~api/b"] }),
    rec(200, { prefixes: ["/~api/list/", "/img"] }),
    rec(300, { tags: ["post-1", `cachely-t${T}-assets`] }),
  ]);
  const api = (path: string, query = "") => apiKey(T, 1, origin, path, query);
  assert(ix.purged(api("/a", "x=1"), obj(100)), "url with its query");
  assert(!ix.purged(api("/a", "x=2"), obj(50)), "another query of that url stays");
  assert(!ix.purged(api("/a", ""), obj(50)), "the url without a query stays");
  assert(ix.purged(api("/b", "y=2"), obj(50)), "a url without a query: every query");
  assert(!ix.purged(api("/a", "x=1"), obj(101)), "stored after the purge");
  assert(ix.purged(api("/list/9"), obj(200)), "prefix");
  assert(!ix.purged(api("/lis"), obj(10)), "shorter than the prefix");
  assert(ix.purged(assetKey(T, 1, origin, "/img/a.png", ""), obj(10)), "prefix of an asset path");
  assert(ix.purged(api("/c"), obj(300, "home, post-1")), "origin tag");
  assert(!ix.purged(api("/c"), obj(300, "home")), "other origin tags stay");
  assert(ix.purged(assetKey(T, 1, origin, "/x.png", ""), obj(5)), "the tenant's kind tag");
  assert(!ix.purged(siteKey(T, 1, origin, "/page", ""), obj(5)), "another kind stays");
  assert(!ix.purged(apiKey(T + 1, 1, origin, "/a", "x=1"), obj(1)), "another tenant");
  // a slice key: r|<range>|<asset key>
  assert(ix.purged(`r|0-9|${assetKey(T, 1, origin, "/img/v.mp4", "")}`, obj(10)), "slice");
});

Deno.test("purge index: a merged record purges each tag at its own time", () => {
  const ix = new PurgeIndex();
  const merged = rec(300, { tags: ["post-1", "post-2"], tagTimes: [100, 300] });
  ix.sync(T, [merged]);
  const key = apiKey(T, 1, origin, "/c", "");
  assert(ix.purged(key, obj(100, "post-1")), "at its own time");
  assert(!ix.purged(key, obj(200, "post-1")), "stored after its own purge, before the merged time");
  assert(ix.purged(key, obj(200, "post-2")), "the tag purged at the merged time");
  assertEquals(lastPurgeMatching([merged], key, T, obj(50, "post-1"))?.at, 100);
});

/** Records whose entry lists count each read. */
function countedRecords(n: number, entries: number, reads: { n: number }): PurgeRecord[] {
  const out: PurgeRecord[] = [];
  for (let r = 0; r < n; r++) {
    const lists = {
      urls: Array.from({ length: entries }, (_, i) => `/~api/u${r}-${i}`),
      prefixes: Array.from({ length: entries }, (_, i) => `/~api/p${r}-${i}/`),
      tags: Array.from({ length: entries }, (_, i) => `t${r}-${i}`),
    };
    const record = { at: 1_000 + r } as PurgeRecord;
    for (const k of ["urls", "prefixes", "tags"] as const) {
      Object.defineProperty(record, k, {
        enumerable: true,
        get: () => (reads.n++, lists[k]),
      });
    }
    out.push(record);
  }
  return out;
}

Deno.test("purge index: a hit reads no purge record once the index is built", () => {
  const reads = { n: 0 };
  const ix = new PurgeIndex();
  ix.sync(T, countedRecords(50, 1000, reads));
  const key = apiKey(T, 1, origin, "/entries/x", "locale=en");
  const o = obj(10, "entry-1");
  assertEquals(ix.purged(key, o), false);
  reads.n = 0;
  for (let i = 0; i < 100; i++) ix.purged(key, o);
  assertEquals(reads.n, 0, "records read per hit");
});

/** Map lookups one purge check makes (Map.prototype.get counted while `check` runs). */
function lookups(check: () => void): number {
  const get = Map.prototype.get;
  let n = 0;
  Map.prototype.get = function (this: Map<unknown, unknown>, k: unknown) {
    n++;
    return get.call(this, k);
  };
  try {
    check();
  } finally {
    Map.prototype.get = get;
  }
  return n;
}

Deno.test("purge index: a check's lookups do not grow with the records (1 or 50 of 1,000)", () => {
  // Counted, not timed (a loaded machine times anything): bench/purge_index_bench.ts and
  // bench/RESULTS.md "Purge check" give the microseconds.
  const per = (records: number) => {
    const ix = new PurgeIndex();
    ix.sync(T, countedRecords(records, 1000, { n: 0 }));
    const key = apiKey(T, 1, origin, "/entries/x", "locale=en");
    const o = obj(10, "entry-1, entry-2");
    ix.purged(key, o); // builds the index
    return lookups(() => ix.purged(key, o));
  };
  const [one, fifty] = [per(1), per(50)];
  console.log(`purge check lookups: ${one} with 1 record, ${fifty} with 50 of 1,000 entries`);
  // Two for the URL, at most one per prefix length up to the path's ("/~api/entries/x": 15),
  // two for the tenant's own tags, one per tag of the object (2), one for entity purges: a
  // bound set by the request and the object, whatever the records hold (a scan: 150,000).
  const bound = 2 + "/~api/entries/x".length + 2 + 2 + 1;
  assert(one <= bound && fifty <= bound, `${one} and ${fifty} lookups, bound ${bound}`);
});

Deno.test("purge index: a variant copy (Vary) is purged by its URL and prefix like the primary", () => {
  const ix = new PurgeIndex();
  ix.sync(T, [rec(100, { urls: ["/img/a.png", "/~api/b?x=1"], prefixes: ["/docs/"] })]);
  const asset = variantKey(assetKey(T, 1, origin, "/img/a.png", ""), "accept-encoding", {
    "accept-encoding": "br",
  })!;
  assert(ix.purged(asset, obj(50)), "asset without a query, stored under a variant key");
  const api = variantKey(apiKey(T, 1, origin, "/b", "x=1"), "accept-language", {
    "accept-language": "de",
  })!;
  assert(ix.purged(api, obj(50)), "API answer with a query, stored under a variant key");
  const page = variantKey(siteKey(T, 1, origin, "/docs/intro", ""), "accept-language", {
    "accept-language": "fr",
  })!;
  assert(ix.purged(page, obj(50)), "a page under a purged prefix, stored under a variant key");
  assert(!ix.purged(asset, obj(150)), "stored after the purge");
});
