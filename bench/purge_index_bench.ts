/**
 * The purge check of a cache hit (edge/cache/purges.ts) with no purge records, and with
 * the most a snapshot carries: 50 records of 1,000 entries each (urls, prefixes and tags
 * mixed), none matching the hit object, which is older than all of them (the worst case:
 * every record applies). `deno bench -A bench/purge_index_bench.ts`
 */
import { PurgeIndex } from "../edge/cache/purges.ts";
import { cachedObject } from "../edge/cache/object.ts";
import { apiKey } from "../edge/cache/keys.ts";
import type { PurgeRecord } from "../lib/kv/snapshot.ts";

const TENANT = 7;
const key = apiKey(TENANT, 1, "http://bench.localhost:8000", "/entries/hello-world", "locale=en");
const obj = cachedObject(
  200,
  [["content-type", "application/json"], ["cache-tag", "entry-1,home"]],
  new TextEncoder().encode('{"ok":true}'),
  1_000,
  60_000,
);

function records(n: number, entries: number, only?: "urls" | "prefixes" | "tags"): PurgeRecord[] {
  const out: PurgeRecord[] = [];
  for (let r = 0; r < n; r++) {
    const urls: string[] = [];
    const prefixes: string[] = [];
    const tags: string[] = [];
    for (let i = 0; i < entries; i++) {
      const id = `${r}-${i}`;
      if (only === "urls") urls.push(`/~api/entries/other-${id}`);
      else if (only === "prefixes") prefixes.push(`/~api/lists/${id}/`);
      else if (only === "tags") tags.push(`entry-x${id}`);
      else if (i % 3 === 0) urls.push(`/~api/entries/other-${id}${i % 2 ? "?locale=de" : ""}`);
      else if (i % 3 === 1) prefixes.push(`/~api/lists/${id}/`);
      else tags.push(`entry-x${id}`);
    }
    out.push({ at: 2_000 + r, urls, prefixes, tags });
  }
  return out;
}

const empty = new PurgeIndex();
const full = new PurgeIndex();
full.sync(TENANT, records(50, 1000));
if (full.purged(key, obj)) throw new Error("the bench object must not match");
// Another tenant's records only: the check finds no entry for this tenant.
const otherTenant = new PurgeIndex();
otherTenant.sync(TENANT + 1, records(50, 1000));

Deno.bench("purge check, no records", { group: "purge", baseline: true }, () => {
  empty.purged(key, obj);
});
Deno.bench("purge check, another tenant's 50 × 1,000", { group: "purge" }, () => {
  otherTenant.purged(key, obj);
});
Deno.bench("purge check, 50 records × 1,000 entries", { group: "purge" }, () => {
  full.purged(key, obj);
});
for (const only of ["urls", "prefixes", "tags"] as const) {
  const ix = new PurgeIndex();
  ix.sync(TENANT, records(50, 1000, only));
  Deno.bench(`purge check, 50 × 1,000 ${only} only`, { group: "purge" }, () => {
    ix.purged(key, obj);
  });
}
const list = records(50, 1000);
Deno.bench("index build, 50 records × 1,000 entries", { group: "build" }, () => {
  const ix = new PurgeIndex();
  ix.sync(TENANT, list);
  ix.purged(key, obj);
});
