/**
 * The edge side of draft switches (sdk/drafts.ts): the compiled guard of a snapshot, and the
 * Prismic master refs a visitor's `ref=` must be one of. docs/providers.md "Draft switches".
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import { type DraftRefusal, type VisitorGuard, visitorGuard } from "../sdk/drafts.ts";
import type { Loaded } from "./cache/through.ts";
import { parseBase } from "../lib/net/url_join.ts";

/** A refusal as the edge answers it: 400 for a switch, 403 for a preview-only origin. */
export type EdgeRefusal = DraftRefusal & { status: 400 | 403 };

const guards = new WeakMap<EdgeSnapshot, VisitorGuard>();

/** The snapshot's guard, compiled once per snapshot object. */
export function guardOf(snap: EdgeSnapshot): VisitorGuard {
  let g = guards.get(snap);
  if (g === undefined) {
    g = visitorGuard(snap.cms, snap.api.origin);
    guards.set(snap, g);
  }
  return g;
}

const basePaths = new WeakMap<EdgeSnapshot, string>();
/** Path verdicts per snapshot: hot paths repeat, so a hit pays one Map lookup. Bounded. */
const pathVerdicts = new WeakMap<EdgeSnapshot, Map<string, EdgeRefusal | null>>();
const PATH_MEMO_ENTRIES = 1024;
const PATH_MEMO_MAX_KEY = 512;

/**
 * The refusal for a visitor's API path (and the tenant's origin), or null. The path is
 * checked as the CMS sees it: the origin's base path (a Sanity origin may carry the API
 * version) plus the visitor's path.
 */
export function refusePath(snap: EdgeSnapshot, apiPath: string): EdgeRefusal | null {
  const g = guardOf(snap);
  if (g.previewHost) {
    return {
      status: 403,
      param: "origin",
      message: "This API origin is a preview API (drafts): only a preview link may use it",
    };
  }
  if (g.id === "") return null;
  let memo = pathVerdicts.get(snap);
  const known = memo?.get(apiPath);
  if (known !== undefined) return known;
  const verdict = judgePath(snap, g, apiPath);
  if (apiPath.length <= PATH_MEMO_MAX_KEY) {
    if (memo === undefined) pathVerdicts.set(snap, memo = new Map());
    if (memo.size >= PATH_MEMO_ENTRIES) memo.clear();
    memo.set(apiPath, verdict);
  }
  return verdict;
}

function judgePath(snap: EdgeSnapshot, g: VisitorGuard, apiPath: string): EdgeRefusal | null {
  let base = basePaths.get(snap);
  if (base === undefined) {
    try {
      base = parseBase(snap.api.origin ?? "").basePath;
    } catch {
      base = "";
    }
    basePaths.set(snap, base);
  }
  const r = g.check(base + apiPath, []);
  return r ? { ...r, status: 400 } : null;
}

// ------------------------------------------------------------ Prismic master refs

/** A master ref stays valid this long after it was last seen (a client's cached API root). */
const MASTER_REF_TTL_MS = 60 * 60_000;
/** The API root is read at most this often per tenant for an unknown ref. */
const REFRESH_EVERY_MS = 1_000;
const MAX_REFS = 16;
const MAX_TENANTS = 1_000;

type Refs = { masters: Map<string, number>; fetchedAt: number; inflight: Promise<void> | null };

/** Master refs per tenant and API origin, per edge (memory: a bounded cache, re-read on miss). */
export class MasterRefs {
  private byTenant = new Map<string, Refs>();

  private entry(snap: EdgeSnapshot): Refs {
    const k = `${snap.tenantId}|${snap.api.origin}|${snap.versions.api}`;
    let e = this.byTenant.get(k);
    if (e === undefined) {
      if (this.byTenant.size >= MAX_TENANTS) this.byTenant.clear();
      e = { masters: new Map(), fetchedAt: -Infinity, inflight: null };
      this.byTenant.set(k, e);
    }
    return e;
  }

  /** True when `ref` was a master ref of the tenant within the last hour. */
  known(snap: EdgeSnapshot, ref: string, now: number): boolean {
    const seen = this.entry(snap).masters.get(ref);
    return seen !== undefined && now - seen < MASTER_REF_TTL_MS;
  }

  /**
   * Whether `ref` is a master ref: known, or after one read of the API root (coalesced,
   * at most once a second per tenant).
   */
  async confirm(
    snap: EdgeSnapshot,
    ref: string,
    now: () => number,
    loadRoot: () => Promise<Loaded>,
  ): Promise<boolean> {
    if (this.known(snap, ref, now())) return true;
    const e = this.entry(snap);
    if (e.inflight === null && now() - e.fetchedAt >= REFRESH_EVERY_MS) {
      e.fetchedAt = now();
      e.inflight = loadRoot().then((r) => this.learn(e, r, now()), () => {}).finally(() => {
        e.inflight = null;
      });
    }
    if (e.inflight) await e.inflight;
    return this.known(snap, ref, now());
  }

  private learn(e: Refs, r: Loaded, now: number): void {
    if (r.kind !== "object" || r.obj.status !== 200) return;
    let refs: unknown;
    try {
      refs = JSON.parse(new TextDecoder().decode(r.obj.body))?.refs;
    } catch {
      return;
    }
    if (!Array.isArray(refs)) return;
    for (const x of refs) {
      if (x && x.isMasterRef === true && typeof x.ref === "string") {
        e.masters.delete(x.ref); // re-inserted: the map's order is oldest first
        e.masters.set(x.ref, now);
      }
    }
    while (e.masters.size > MAX_REFS) e.masters.delete(e.masters.keys().next().value!);
  }
}
