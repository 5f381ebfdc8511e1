/**
 * A cached response as the edge keeps it. A full cache holds 100,000 of these, so the object
 * is laid out for the heap (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read"): it is its own LRU list node, a
 * body packed into a slab is an offset into it rather than a Uint8Array view (104 heap bytes
 * each; the view is made when the body is read), identical header lists are one shared
 * array, and the two flags share one field. ~150 bytes for the object, against ~290 for the
 * object, list node and view it replaces.
 */
import { LruEntry } from "../../lib/cache/lru.ts";
import type { Slab } from "./slabs.ts";
import type { HitTemplate } from "./hit_templates.ts";
import type { Codings } from "./variants.ts";
import { safeHeaderPairs } from "../../lib/http/header_value.ts";

/** Bytes backed by a plain ArrayBuffer (what Response accepts as a body). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** Every cached object is charged this on top of its body and header characters. */
export const OVERHEAD = 512;

const NO_CDN = 1;
const HIT_BEFORE = 2;
/** Released from its slab: the slab no longer counts the body (edge/cache/slabs.ts). */
const RELEASED = 4;
/** Put into the Web Cache tier (or read from it): its eviction deletes it there (store.ts). */
const IN_TIER = 8;

const FLAG_BITS = 15;
const USED_SHIFT = 4;
/** Seconds usedAt counts up to (a small integer: flags stays a V8 Smi). */
const MAX_USED_S = (1 << 26) - 1;
/** The clock time usedAt's seconds count from (set when the first object is marked). */
let usedEpoch = -1;

/** A whole response body held in memory, shareable between responses. */
export class CachedObject extends LruEntry {
  /**
   * The body: a buffer of its own, or the slab that holds it at `offset` and counts it as
   * live there (edge/cache/slabs.ts).
   */
  private data: Bytes | Slab;
  private offset = 0;
  /** Length of the body in bytes (without making a view of it). */
  readonly bodyLength: number;
  private flags: number;
  /** The prebuilt hit response while the object is hot (edge/cache/hit_templates.ts). */
  sent: HitTemplate | undefined = undefined;
  /** Its compressed copies and their views, for a compressible body (edge/cache/variants.ts). */
  codings: Codings | undefined = undefined;
  /**
   * How long past its TTL the object may be served while one background refresh runs
   * (stale-while-revalidate, edge/cache/through.ts); 0 never.
   */
  swrMs = 0;
  /**
   * How long past its TTL it may be served when the origin fails (stale-if-error): -1 the
   * edge's STALE_IF_ERROR_SECONDS, 0 never (must-revalidate, no-cache, proxy-revalidate).
   */
  sieMs = -1;

  /**
   * Clock time (ms, to the second) a visitor was last served it, 0 never: the prewarm's
   * "recent traffic" (edge/prewarm.ts). Kept in `flags` above its bits, as seconds since the
   * first time marked: a field of its own cost every entry 4 heap bytes (edge/cache/heap_test.ts).
   */
  get usedAt(): number {
    const s = this.flags >>> USED_SHIFT;
    return s === 0 ? 0 : usedEpoch + s * 1000;
  }

  set usedAt(ms: number) {
    if (usedEpoch < 0) usedEpoch = ms - 1000;
    const s = Math.min(Math.max(Math.floor((ms - usedEpoch) / 1000), 1), MAX_USED_S);
    this.flags = (this.flags & FLAG_BITS) | (s << USED_SHIFT);
  }

  constructor(
    readonly status: number,
    /**
     * Response headers to replay (no Age, no x-cachely-cache: those are per response).
     * Shared between objects with the same pairs: never mutated.
     */
    readonly headers: [string, string][],
    body: Bytes,
    /** Clock time the object was fetched, in ms. */
    readonly storedAt: number,
    /** Freshness lifetime in ms. */
    readonly ttlMs: number,
    size: number,
    /** Strong validator, when upstream sent one (If-Range, If-None-Match). */
    readonly etag: string | null,
    readonly lastModified: string | null,
    readonly contentType: string,
    noCdn: boolean,
  ) {
    super(size);
    this.data = body;
    this.bodyLength = body.byteLength;
    this.flags = noCdn ? NO_CDN : 0;
  }

  /**
   * The body's bytes. A body in a slab is read through a view made on each read, except
   * while the object has a hit template: every hit reads the body's length, so the view is
   * kept on the template (at most as many views as templates).
   */
  get body(): Bytes {
    const d = this.data;
    if (d instanceof Uint8Array) return d;
    if (d.gone) throw new Error("cached body read after its slab was reused (edge/cache/slabs.ts)");
    const t = this.sent;
    if (t === undefined) return new Uint8Array(d.buf.buffer, this.offset, this.bodyLength);
    return t.body ??= new Uint8Array(d.buf.buffer, this.offset, this.bodyLength);
  }

  /** The slab counting this body as live (null: a buffer of its own, or released). */
  get slab(): Slab | null {
    const d = this.data;
    return d instanceof Uint8Array || (this.flags & RELEASED) !== 0 ? null : d;
  }

  /**
   * The body can be read: false once the object left the cache and the slab its body sat in
   * was reused for other bodies. Only code that held the object across an await needs to ask.
   */
  get readable(): boolean {
    const d = this.data;
    return d instanceof Uint8Array || !d.gone;
  }

  /** slabs.ts: the body now sits in `slab` at `offset`. */
  placeIn(slab: Slab, offset: number): void {
    this.data = slab;
    this.offset = offset;
    this.flags &= ~RELEASED;
    // A kept view would pin the slab the body moved out of.
    if (this.sent !== undefined) this.sent.body = undefined;
  }

  /**
   * slabs.ts: the slab stops counting the body. The object still reads it from there until
   * the slab is reused (then `readable` turns false): no copy, no view kept per entry.
   */
  detach(): void {
    this.flags |= RELEASED;
  }

  /**
   * Never offered to a CDN (edge/cdn.ts): the upstream set a cookie, which the edge drops
   * but which marks the response as made for one visitor.
   */
  get noCdn(): boolean {
    return (this.flags & NO_CDN) !== 0;
  }

  /** Hit at least once: the next hit builds its template (edge/respond.ts). */
  get hitBefore(): boolean {
    return (this.flags & HIT_BEFORE) !== 0;
  }
  set hitBefore(v: boolean) {
    this.flags = v ? this.flags | HIT_BEFORE : this.flags & ~HIT_BEFORE;
  }

  /**
   * A copy of it is in the Web Cache tier: put there (a key's second request, store.ts) or
   * read from there. Only such an object's eviction deletes from the tier.
   */
  get inTier(): boolean {
    return (this.flags & IN_TIER) !== 0;
  }
  set inTier(v: boolean) {
    this.flags = v ? this.flags | IN_TIER : this.flags & ~IN_TIER;
  }

  /** True while the memory tier holds the object (only such objects get a template). */
  get kept(): boolean {
    return this.lruKey !== null;
  }
}

/**
 * Header pairs and whole header lists shared between cached objects: most entries of a
 * tenant carry the same content-type and cache-control, and a fresh pair per entry was a
 * tenth of an entry's heap, a fresh list (without validators) another 72 bytes
 * (bench/ANALYSIS.md "A full cache", "RSS with a full cache"). Bounded; cleared when full.
 */
const pairs = new Map<string, [string, string]>();
const lists = new Map<string, [string, string][]>();
const SHARED_MAX = 4096;
const PAIR_MAX_CHARS = 200;
/**
 * Pairs that differ per entry: sharing them would fill the map with one-off pairs. An entry
 * with one keeps a list of its own (~72 bytes), as entries with validators do.
 */
const PER_ENTRY: ReadonlySet<string> = new Set(["etag", "last-modified"]);
/**
 * The origin's Date (kept since Expires is read against it) changes once a second: the last
 * pair is shared by the answers of that second, so their lists can be one shared list too.
 * A Date pair, list and string of its own were ~170 heap bytes of each entry.
 */
let lastDate: [string, string] | null = null;

/** The shared copy of a pair, or null for one worth no sharing (per entry, or long). */
function sharedPair(h: [string, string]): [string, string] | null {
  if (h[0] === "date" && h[1].length < PAIR_MAX_CHARS) {
    if (lastDate !== null && lastDate[1] === h[1]) return lastDate;
    return lastDate = h;
  }
  if (h[0].length + h[1].length > PAIR_MAX_CHARS || PER_ENTRY.has(h[0])) {
    return null; // validators differ per entry
  }
  const key = `${h[0]}\n${h[1]}`;
  const got = pairs.get(key);
  if (got) return got;
  if (pairs.size >= SHARED_MAX) pairs.clear();
  pairs.set(key, h);
  return h;
}

/** `headers` with shared pairs, as one shared list when every pair is a shared one. */
function sharedHeaders(headers: [string, string][]): [string, string][] {
  const out: [string, string][] = [];
  let key = "";
  let shareable = true;
  for (const h of headers) {
    const p = sharedPair(h);
    if (p === null) shareable = false;
    out.push(p ?? h);
    if (shareable) key += `${h[0]}\n${h[1]}\n`;
  }
  if (!shareable) return out;
  const got = lists.get(key);
  if (got) return got;
  if (lists.size >= SHARED_MAX) lists.clear();
  lists.set(key, out);
  return out;
}

/**
 * The bytes of a body read by the runtime, in a buffer of exactly their length. Deno hands
 * out a read body (Response.arrayBuffer(), a stream chunk) in a buffer whose allocation can
 * be twice its byteLength or more (2 KB read: ~4 KB allocated; 20 KB: ~65 KB), and V8 reports
 * only the byteLength: a cached body must be copied out (bench/ANALYSIS.md "Misses, the header set, transformed hits").
 */
export function ownedBytes(read: ArrayBuffer | Uint8Array): Bytes {
  return read instanceof ArrayBuffer ? new Uint8Array(read.slice(0)) : read.slice();
}

/**
 * Pieces of a body read in parts, in one buffer of exactly their length: always a copy, since
 * a piece can be a view into a larger read buffer or hide spare capacity (ownedBytes).
 */
export function concatBytes(pieces: readonly Uint8Array[], total: number): Bytes {
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of pieces) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

/** Builds a CachedObject from parts, computing size and validators. */
export function cachedObject(
  status: number,
  headers: [string, string][],
  body: Bytes,
  storedAt: number,
  ttlMs: number,
  noCdn = false,
): CachedObject {
  // The bound counts body.byteLength, so the object must not pin a larger buffer (a view
  // into a read buffer cost 64 KB per 2 KB entry: 2.5 GB for a 100 MB cache).
  if (body.byteLength !== body.buffer.byteLength) body = body.slice();
  // Every stored object passes here (a miss, a 304 merged into its copy, a read from the Web
  // Cache tier, which may hold what an older version stored): none keeps a header value
  // that would end the process when replayed (lib/http/header_value.ts).
  const safe = safeHeaderPairs(headers);
  return objectOf(status, sharedHeaders(safe), body, storedAt, ttlMs, noCdn);
}

/**
 * An object made for one response and never stored (a byte range cut from a cached body):
 * its body stays a view of the cached bytes and its headers (a per-response Content-Range)
 * stay out of the shared lists.
 */
export function partialObject(
  status: number,
  headers: [string, string][],
  body: Bytes,
  storedAt: number,
  ttlMs: number,
): CachedObject {
  return objectOf(status, headers, body, storedAt, ttlMs, false);
}

function objectOf(
  status: number,
  headers: [string, string][],
  body: Bytes,
  storedAt: number,
  ttlMs: number,
  noCdn: boolean,
): CachedObject {
  let etag: string | null = null;
  let lastModified: string | null = null;
  let contentType = "";
  let hsize = 0;
  for (const [k, v] of headers) {
    hsize += k.length + v.length;
    if (k === "etag") etag = v;
    else if (k === "last-modified") lastModified = v;
    else if (k === "content-type") contentType = v;
  }
  const size = body.byteLength + hsize + OVERHEAD;
  return new CachedObject(
    status,
    headers,
    body,
    storedAt,
    ttlMs,
    size,
    etag,
    lastModified,
    contentType,
    noCdn,
  );
}
