/**
 * Purges by URL, prefix or tag at the edge. The tenant snapshot carries the purge records
 * (lib/cache/purge.ts); `sync` takes a snapshot's list when it is new. A cached object
 * stored before a purge that matches it is not served: the caller treats it as a miss and
 * drops it from both tiers.
 *
 * Cost on a hit: one size check while no tenant has purges; else one Map lookup and a time
 * compare, the match itself only for objects older than the tenant's latest purge. The match
 * reads an index built once per purge list (the first time an old object is checked), never
 * the records: two lookups for the URL, one per distinct prefix length up to the path's
 * length, one per tag of the object (its origin tags, and its entity tags once per purge list:
 * edge/cache/entity_tags.ts). It does not grow with the number of records (at most
 * 50 of 1,000 entries; bench/RESULTS.md "Purge check").
 */
import type { CachedObject } from "./store.ts";
import type { PurgeRecord } from "../../lib/kv/snapshot.ts";
import { type CdnKind, kindTag, tenantTag } from "../../lib/cdn/tags.ts";
import { entityPurged, entityTagsOf } from "./entity_tags.ts";

/** Each entry -> the time of the latest purge naming it (an object stored at or before it goes). */
type Latest = Map<string, number>;

type Index = {
  /** `/path` (every query of the path) and `/path?query` (that variant only). */
  urls: Latest;
  prefixes: Latest;
  /** The distinct prefix lengths, ascending: a path is looked up at each. */
  prefixLengths: number[];
  tags: Latest;
};

type TenantPurges = { src: PurgeRecord[]; latest: number; index: Index | null };

/** Kinds of cache key (edge/cache/keys.ts) and the visitor path prefix of each. */
const KIND_PREFIX: Record<string, string> = { a: "/~api", s: "", h: "" };
const KIND_TAG: Record<string, CdnKind> = { a: "api", s: "assets", h: "html" };

function note(m: Latest, entry: string, at: number): void {
  const cur = m.get(entry);
  if (cur === undefined || cur < at) m.set(entry, at);
}

function buildIndex(records: PurgeRecord[]): Index {
  const ix: Index = { urls: new Map(), prefixes: new Map(), prefixLengths: [], tags: new Map() };
  for (const p of records) {
    for (const u of p.urls) note(ix.urls, u, p.at);
    for (const prefix of p.prefixes) note(ix.prefixes, prefix, p.at);
    p.tags.forEach((tag, i) => note(ix.tags, tag, p.tagTimes?.[i] ?? p.at));
  }
  const lengths = new Set<number>();
  for (const prefix of ix.prefixes.keys()) lengths.add(prefix.length);
  ix.prefixLengths = [...lengths].sort((a, b) => a - b);
  return ix;
}

/** True when `m` names `entry` with a purge at or after `storedAt`. */
function newer(m: Latest, entry: string, storedAt: number): boolean {
  const at = m.get(entry);
  return at !== undefined && storedAt <= at; // the same ms may have fetched before the purge
}

export class PurgeIndex {
  #byTenant = new Map<number, TenantPurges>();

  /** Takes a snapshot's purge list (identity-checked: a no-op for the same list). */
  sync(tenantId: number, purges: PurgeRecord[] | undefined): void {
    if (purges === undefined) return;
    const cur = this.#byTenant.get(tenantId);
    if (cur?.src === purges) return;
    if (purges.length === 0) {
      this.#byTenant.delete(tenantId);
      return;
    }
    let latest = 0;
    for (const p of purges) latest = Math.max(latest, p.at);
    if (this.#byTenant.size >= 10_000 && !cur) this.#byTenant.clear();
    this.#byTenant.set(tenantId, { src: purges, latest, index: null });
  }

  /** True when `obj`, cached under `key`, was stored before a purge that matches it. */
  purged(key: string, obj: CachedObject): boolean {
    if (this.#byTenant.size === 0) return false;
    // a slice key is r|<range>|<asset key>
    const base = key.charCodeAt(0) === 114 ? key.slice(key.indexOf("|", 2) + 1) : key;
    const i1 = base.indexOf("|");
    const i2 = base.indexOf("|", i1 + 1);
    const tenantId = Number(base.slice(i1 + 1, i2));
    const t = this.#byTenant.get(tenantId);
    if (t === undefined || obj.storedAt > t.latest) return false;
    const ix = t.index ??= buildIndex(t.src);
    const kind = base.slice(0, i1);
    const i3 = base.indexOf("|", i2 + 1);
    const rest = base.slice(base.indexOf("|", i3 + 1) + 1);
    const q = rest.indexOf("?");
    const path = (KIND_PREFIX[kind] ?? "") + rest.slice(0, q === -1 ? pathEnd(rest) : q);
    let query = q === -1 ? "" : rest.slice(q + 1);
    const bar = query.indexOf("|");
    if (bar !== -1) query = query.slice(0, bar);
    const at = obj.storedAt;
    if (ix.urls.size > 0) {
      if (newer(ix.urls, path, at)) return true;
      if (query !== "" && newer(ix.urls, `${path}?${query}`, at)) return true;
    }
    for (const len of ix.prefixLengths) {
      if (len > path.length) break;
      if (newer(ix.prefixes, path.slice(0, len), at)) return true;
    }
    if (ix.tags.size === 0) return false;
    if (tagPurged(ix.tags, obj, tenantId, kind)) return true;
    return kind === "a" && entityPurged(ix.tags, obj, tenantId, t.latest);
  }
}

/**
 * Where the path of a key's `<path>` part without a query ends: before a variant suffix
 * (`|v|<name>=<value>...`, edge/cache/vary.ts), else at its end.
 */
function pathEnd(rest: string): number {
  const v = rest.indexOf("|v|");
  return v === -1 ? rest.length : v;
}

/**
 * The kind, visitor path and normalised query a (non-slice) cache key names: the parsing of
 * `purged` above, which keeps its own inline copy (no object per check on the hit path).
 */
function keyTarget(base: string): { kind: string; path: string; query: string } {
  const i1 = base.indexOf("|");
  const i2 = base.indexOf("|", i1 + 1);
  const kind = base.slice(0, i1);
  const i3 = base.indexOf("|", i2 + 1);
  const rest = base.slice(base.indexOf("|", i3 + 1) + 1);
  const q = rest.indexOf("?");
  const path = (KIND_PREFIX[kind] ?? "") + rest.slice(0, q === -1 ? pathEnd(rest) : q);
  let query = q === -1 ? "" : rest.slice(q + 1);
  const bar = query.indexOf("|");
  if (bar !== -1) query = query.slice(0, bar);
  return { kind, path, query };
}

/** The newest purge record that names what `key` caches, and the entry that matched it. */
export type PurgeMatch = { at: number; by: "url" | "prefix" | "tag"; entry: string };

/**
 * The newest of `records` matching the object under `key` (a tenant's primary cache key) by
 * URL, prefix, the tenant's own tags, or the stored object's origin tags; read by the
 * explanation (edge/explain.ts), never on the request path. Entity tags are not matched here.
 */
export function lastPurgeMatching(
  records: readonly PurgeRecord[],
  key: string,
  tenantId: number,
  obj: CachedObject | undefined,
): PurgeMatch | null {
  const { kind, path, query } = keyTarget(key);
  const own = [tenantTag(tenantId)];
  const k = KIND_TAG[kind];
  if (k !== undefined) own.push(kindTag(tenantId, k));
  for (const [name, v] of obj?.headers ?? []) {
    if (name === "cache-tag" || name === "surrogate-key" || name === "x-cache-tag") {
      own.push(...v.split(/[\s,]+/).filter((t) => t !== ""));
    }
  }
  if (kind === "a" && obj !== undefined) own.push(...entityTagsOf(obj, tenantId));
  let best: PurgeMatch | null = null;
  for (const p of records) {
    if (best !== null && p.at <= best.at) continue; // a tag's own time is never past `at`
    const url = p.urls.find((u) => u === path || (query !== "" && u === `${path}?${query}`));
    const prefix = url === undefined ? p.prefixes.find((x) => path.startsWith(x)) : undefined;
    if (url !== undefined) best = { at: p.at, by: "url", entry: url };
    else if (prefix !== undefined) best = { at: p.at, by: "prefix", entry: prefix };
    else {
      p.tags.forEach((t, i) => {
        const at = p.tagTimes?.[i] ?? p.at;
        if (own.includes(t) && (best === null || at > best.at)) best = { at, by: "tag", entry: t };
      });
    }
  }
  return best;
}

/**
 * True when a tag purge newer than `obj` names one of its tags: the tenant's own cachely
 * tags, or the origin's Cache-Tag / Surrogate-Key values.
 */
function tagPurged(tags: Latest, obj: CachedObject, tenantId: number, kind: string): boolean {
  const at = obj.storedAt;
  if (newer(tags, tenantTag(tenantId), at)) return true;
  const k = KIND_TAG[kind];
  if (k !== undefined && newer(tags, kindTag(tenantId, k), at)) return true;
  for (const [name, v] of obj.headers) {
    if (name === "cache-tag" || name === "surrogate-key" || name === "x-cache-tag") {
      for (const t of v.split(/[\s,]+/)) if (t && newer(tags, t, at)) return true;
    }
  }
  return false;
}
