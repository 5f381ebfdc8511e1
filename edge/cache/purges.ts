/**
 * Purges by URL, prefix or tag at the edge (issue 23). The tenant snapshot carries the
 * purge records (lib/cache/purge.ts); `sync` indexes them when a request brings a snapshot
 * whose list is new. A cached object stored before a purge that matches it is not served:
 * the caller treats it as a miss and drops it from both tiers. Cost on a hit: one size check
 * while no tenant has purges; else one Map lookup and a time compare, the match itself only
 * for objects older than the tenant's latest purge.
 */
import type { CachedObject } from "./store.ts";
import type { PurgeRecord } from "../../lib/kv/snapshot.ts";
import { type CdnKind, kindTag, tenantTag } from "../../lib/cdn/tags.ts";

type TenantPurges = { src: PurgeRecord[]; latest: number; records: PurgeRecord[] };

/** Kinds of cache key (edge/cache/keys.ts) and the visitor path prefix of each. */
const KIND_PREFIX: Record<string, string> = { a: "/~api", s: "", h: "" };
const KIND_TAG: Record<string, CdnKind> = { a: "api", s: "assets", h: "html" };

export class PurgeIndex {
  #byTenant = new Map<number, TenantPurges>();

  /** Indexes a snapshot's purge list (identity-checked: a no-op for the same list). */
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
    this.#byTenant.set(tenantId, { src: purges, latest, records: purges });
  }

  /** True when `obj`, cached under `key`, was stored before a purge that matches it. */
  purged(key: string, obj: CachedObject): boolean {
    if (this.#byTenant.size === 0) return false;
    // a slice key is r|<range>|<asset key>
    const base = key.charCodeAt(0) === 114 ? key.slice(key.indexOf("|", 2) + 1) : key;
    const i1 = base.indexOf("|");
    const i2 = base.indexOf("|", i1 + 1);
    const t = this.#byTenant.get(Number(base.slice(i1 + 1, i2)));
    if (t === undefined || obj.storedAt > t.latest) return false;
    const kind = base.slice(0, i1);
    const i3 = base.indexOf("|", i2 + 1);
    const rest = base.slice(base.indexOf("|", i3 + 1) + 1);
    const q = rest.indexOf("?");
    const path = (KIND_PREFIX[kind] ?? "") + (q === -1 ? rest : rest.slice(0, q));
    let query = q === -1 ? "" : rest.slice(q + 1);
    const bar = query.indexOf("|");
    if (bar !== -1) query = query.slice(0, bar);
    let tags: string[] | null = null;
    for (const p of t.records) {
      if (obj.storedAt > p.at) continue; // the same ms may have fetched before the purge
      for (const u of p.urls) {
        const uq = u.indexOf("?");
        if (uq === -1 ? u === path : u.slice(0, uq) === path && u.slice(uq + 1) === query) {
          return true;
        }
      }
      for (const prefix of p.prefixes) if (path.startsWith(prefix)) return true;
      if (p.tags.length > 0) {
        tags ??= objectTags(obj, Number(base.slice(i1 + 1, i2)), kind);
        for (const tag of p.tags) if (tags.includes(tag)) return true;
      }
    }
    return false;
  }
}

/** The origin's Cache-Tag / Surrogate-Key values, and the tenant's own cachely tags. */
function objectTags(obj: CachedObject, tenantId: number, kind: string): string[] {
  const out = [tenantTag(tenantId)];
  if (KIND_TAG[kind]) out.push(kindTag(tenantId, KIND_TAG[kind]));
  for (const [k, v] of obj.headers) {
    if (k === "cache-tag" || k === "surrogate-key" || k === "x-cache-tag") {
      for (const t of v.split(/[\s,]+/)) if (t) out.push(t);
    }
  }
  return out;
}
