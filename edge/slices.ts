/**
 * Byte ranges of objects the edge does not hold whole, served from cached slices (nginx's
 * slice module, Fastly's segmented caching; docs/decisions.md "Range requests and slices").
 *
 * A closed range `bytes=a-b` no longer than the object bound is answered from the aligned
 * 1 MiB slices that cover it: each slice is fetched once with `Range: bytes=s-(s+1MiB-1)`,
 * kept in the edge cache under its own key (edge/cache/keys.ts sliceKey) with the asset's
 * TTL, and coalesced like any miss, so a video seeked by many visitors costs the origin one
 * request per slice. The answer is a 206 cut from the slices.
 *
 * An open-ended range `bytes=a-` (a > 0; a media player's seek) or a closed one longer than
 * the bound is streamed from the same slices, one after another as the visitor reads
 * (streamSlices). With If-Range, the first slice's validators decide (edge/assets.ts).
 * Suffix and multiple ranges are forwarded as before. So is a slice answer that is not a
 * proper slice: an upstream that ignores Range (its 200 is passed on: a server may ignore Range), a 416 or an error
 * (passed on), a 206 of another range or of an unknown total length, or slices whose
 * validators disagree (the object changed between two slice fetches: they are dropped and
 * the range forwarded). Like a forwarded range, a slice is never rewritten: a part of a
 * text cannot be.
 */
import type { CachedObject } from "./cache/store.ts";
import { type Bytes, concatBytes, partialObject } from "./cache/object.ts";
import { type Loaded, readThrough, type Served, type ThroughContext } from "./cache/through.ts";
import { sliceKey } from "./cache/keys.ts";
import { ageSeconds, cloneAged, objectResponse, type Outcome } from "./respond.ts";
import { TEMPLATE_OBJECT_COST } from "./cache/hit_templates.ts";
import type { UpstreamStream } from "../lib/net/upstream_types.ts";

/** Slice length: nginx's usual `slice 1m`; one slice is one cache entry. */
export const SLICE_BYTES = 1 << 20;

const CLOSED = /^\s*bytes\s*=\s*(\d{1,15})\s*-\s*(\d{1,15})\s*$/i;
const OPEN = /^\s*bytes\s*=\s*(\d{1,15})\s*-\s*$/i;
const CONTENT_RANGE = /^\s*bytes\s+(\d{1,15})-(\d{1,15})\/(\d{1,15})\s*$/i;

/** `bytes=a-b` with a <= b and at most `maxBytes` long, as [a, b]; else null (forwarded). */
export function closedRange(header: string, maxBytes: number): [number, number] | null {
  const m = CLOSED.exec(header);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a <= b && b - a + 1 <= maxBytes ? [a, b] : null;
}

/** The upstream Range of the slice starting at `start`. */
export function sliceRange(start: number): string {
  return `bytes=${start}-${start + SLICE_BYTES - 1}`;
}

/** A Content-Range `bytes s-e/total`, or null (`*` total, other units, malformed). */
export function parseContentRange(v: string | undefined): [number, number, number] | null {
  const m = v === undefined ? null : CONTENT_RANGE.exec(v);
  if (!m) return null;
  const s = Number(m[1]), e = Number(m[2]), total = Number(m[3]);
  return s <= e && e < total ? [s, e, total] : null;
}

const header = (obj: CachedObject, name: string) => obj.headers.find((h) => h[0] === name)?.[1];

/** The total length when `obj` is the slice that starts at `start`, else null. */
function sliceTotal(obj: CachedObject, start: number): number | null {
  if (obj.status !== 206) return null;
  const cr = parseContentRange(header(obj, "content-range"));
  if (!cr || cr[0] !== start || cr[1] !== Math.min(start + SLICE_BYTES, cr[2]) - 1) return null;
  return cr[1] - cr[0] + 1 === obj.bodyLength ? cr[2] : null;
}

/**
 * A slice loader's result as readThrough should keep it: a proper slice is cacheable when a
 * whole answer with its headers would be (edge/respond.ts finishUpstream: no no-store,
 * private or Set-Cookie, a lifetime or a validator); anything else is passed on uncached.
 */
export function asSlice(loaded: Loaded, start: number): Loaded {
  if (loaded.kind !== "object") return loaded;
  const ok = loaded.cacheable && sliceTotal(loaded.obj, start) !== null;
  return ok === loaded.cacheable ? loaded : { ...loaded, cacheable: ok };
}

/** A 206 (or 416) cut from the slices, as a partial object. */
export type SlicePart = {
  kind: "part";
  obj: CachedObject;
  cache: "HIT" | "MISS" | "STALE";
  /**
   * The slice the range starts in: the validators If-Range is checked against, and the
   * holder of the range's template (a 206's only).
   */
  first: CachedObject;
  /** The range's id (its template's tag). */
  id: string;
};

/** What serveSlices decided. */
export type SliceAnswer =
  | SlicePart
  /** The first slice's answer was no slice: pass it on as it is. */
  | { kind: "as-is"; served: Served }
  /** Give up on slices for this request: forward the visitor's range. */
  | { kind: "forward" };

/** Loads the slice at `start` through the cache (coalesced, stored when it is a proper slice). */
type SliceReader = (start: number) => Promise<Served>;

function sliceReader(
  through: ThroughContext,
  key: string,
  load: (start: number, prev?: CachedObject) => Promise<Loaded>,
  revalidate: boolean,
): SliceReader {
  const opts = { revalidate };
  return (start) =>
    readThrough(through, sliceKey(key, start, SLICE_BYTES), (prev) => load(start, prev), opts);
}

/** The slice a range starts in, its object's total length and headers; or the decision. */
type Opening =
  | {
    kind: "open";
    first: Served & { kind: "object" };
    firstStart: number;
    total: number;
    base: [string, string][];
  }
  | SliceAnswer;

async function openAt(slice: SliceReader, a: number): Promise<Opening> {
  const firstStart = a - (a % SLICE_BYTES);
  const first = await slice(firstStart);
  if (first.kind !== "object") return { kind: "as-is", served: first };
  const total = sliceTotal(first.obj, firstStart);
  if (total === null) {
    // a 206 of another range cannot answer this one; anything else is a whole answer
    return first.obj.status === 206 ? { kind: "forward" } : { kind: "as-is", served: first };
  }
  const base = first.obj.headers.filter((h) => h[0] !== "content-range");
  if (a >= total) {
    const obj = partialObject(416, [...base, ["content-range", `bytes */${total}`]], EMPTY, 0, 0);
    return { kind: "part", obj, cache: first.cache, first: first.obj, id: "" };
  }
  return { kind: "open", first, firstStart, total, base };
}

/** Whether `r` is the slice at `start` of the same object version as `first`. */
function sameVersion(
  r: Served,
  start: number,
  total: number,
  first: CachedObject,
): r is Served & { kind: "object" } {
  return r.kind === "object" && sliceTotal(r.obj, start) === total &&
    r.obj.etag === first.etag && r.obj.lastModified === first.lastModified;
}

/**
 * The object changed between slice fetches (or the origin failed): drop the slices in
 * [from, to], so the next request fetches one consistent set.
 */
function dropSlices(through: ThroughContext, key: string, from: number, to: number): void {
  for (let s = from; s <= to; s += SLICE_BYTES) {
    void through.cache.delete(sliceKey(key, s, SLICE_BYTES));
  }
}

/**
 * Answers [a, b] of the object cached under `key` from its slices, loading missing ones
 * through `load(start)` (which must fetch `sliceRange(start)` and return it via asSlice).
 */
export async function serveSlices(
  through: ThroughContext,
  key: string,
  [a, b]: [number, number],
  load: (start: number, prev?: CachedObject) => Promise<Loaded>,
  /** The request asked for revalidation (origin mode): no slice is answered unasked. */
  revalidate = false,
): Promise<SliceAnswer> {
  const slice = sliceReader(through, key, load, revalidate);
  const o = await openAt(slice, a);
  if (o.kind !== "open") return o;
  const { first, firstStart, total, base } = o;
  const end = Math.min(b, total - 1);
  const rest: Promise<Served>[] = [];
  for (let s = firstStart + SLICE_BYTES; s <= end; s += SLICE_BYTES) rest.push(slice(s));
  const slices = [first];
  for (const r of await Promise.all(rest)) {
    const start = firstStart + slices.length * SLICE_BYTES;
    if (!sameVersion(r, start, total, first.obj)) {
      dropSlices(through, key, firstStart, end);
      return { kind: "forward" };
    }
    slices.push(r);
  }
  const pieces = slices.map(({ obj }, i) => {
    const start = firstStart + i * SLICE_BYTES;
    return obj.body.subarray(Math.max(0, a - start), Math.min(obj.bodyLength, end - start + 1));
  });
  const body: Bytes = pieces.length === 1 ? pieces[0] : concatBytes(pieces, end - a + 1);
  const obj = partialObject(
    206,
    [...base, ["content-range", `bytes ${a}-${end}/${total}`]],
    body,
    first.obj.storedAt,
    first.obj.ttlMs,
  );
  const cache = slices.some((r) => r.cache === "STALE")
    ? "STALE"
    : slices.every((r) => r.cache === "HIT")
    ? "HIT"
    : "MISS";
  return { kind: "part", obj, cache, first: first.obj, id: rangeId(a, b) };
}

/**
 * A range to stream from slices, as [a, b] (b = Infinity when open-ended): `bytes=a-` or a
 * closed `bytes=a-b` of any length; else null. (Whether `bytes=0-`, a player's first
 * request, goes to the slices or fills the whole-object cache is edge/assets.ts's call.)
 */
export function streamRange(header: string): [number, number] | null {
  const open = OPEN.exec(header);
  if (open) return [Number(open[1]), Infinity];
  const m = CLOSED.exec(header);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a <= b ? [a, b] : null;
}

/** Whether the object's first slice is cached, fresh, and shows a total over `maxBytes`. */
export function knownOverBound(
  through: ThroughContext,
  key: string,
  maxBytes: number,
  now: number,
): boolean {
  const first = through.cache.peek(sliceKey(key, 0, SLICE_BYTES));
  if (first === undefined || !through.cache.isFresh(first, now)) return false;
  return (sliceTotal(first, 0) ?? 0) > maxBytes;
}

/** A 206 streamed from slices: its cache outcome is that of the slice it starts in. */
export type SliceStream = {
  kind: "stream";
  stream: UpstreamStream;
  /** The slice it starts in: the validators If-Range is checked against. */
  first: CachedObject;
  cache: "HIT" | "MISS" | "STALE";
  /** Seconds since the first slice was stored. */
  age: number;
};

/**
 * Answers [a, b] (b may be Infinity: `bytes=a-`) from the object's slices, streamed: what
 * Chrome's media player asks when it seeks (open-ended, or closed to the end of what it has
 * buffered, often tens of MB). Each slice after the first is read through the cache when the visitor
 * has taken the one before (one slice ahead at most), so a visitor who stops watching costs
 * no further slices. The chunks are views of the cached bodies, not copies: a cached body's
 * bytes never change (a slab is written once, edge/cache/slabs.ts; larger bodies are buffers
 * of their own), and a view keeps them alive after eviction. A slice of another version ends
 * the stream early (the visitor sees a short body against its Content-Length; players retry)
 * and drops the slices read.
 */
export async function streamSlices(
  through: ThroughContext,
  key: string,
  [a, b]: [number, number],
  load: (start: number, prev?: CachedObject) => Promise<Loaded>,
  revalidate = false,
): Promise<SliceAnswer | SliceStream> {
  const slice = sliceReader(through, key, load, revalidate);
  const o = await openAt(slice, a);
  if (o.kind !== "open") return o;
  const { first, firstStart, total, base } = o;
  const end = Math.min(b, total - 1);
  /**
   * The part of the slice at `start` inside [a, end]: a view, except for a body packed in a
   * slab (a last slice under 32 KB), whose slab may hold other bodies once the slice leaves
   * the cache while the stream still holds the chunk (edge/cache/slabs.ts).
   */
  const piece = (obj: CachedObject, start: number) => {
    const whole = obj.body;
    const v = whole.subarray(Math.max(0, a - start), Math.min(obj.bodyLength, end - start + 1));
    return whole.byteLength === whole.buffer.byteLength ? v : v.slice();
  };
  let next = firstStart; // the slice the next pull enqueues
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const start = next;
      if (start === firstStart) {
        controller.enqueue(piece(first.obj, start));
      } else {
        const r = await slice(start).catch(() => null);
        if (r === null || !sameVersion(r, start, total, first.obj)) {
          dropSlices(through, key, firstStart, start);
          controller.error(new Error(`slice at ${start} is not of the version streamed`));
          return;
        }
        controller.enqueue(piece(r.obj, start));
      }
      next = start + SLICE_BYTES;
      if (next > end) controller.close();
    },
  });
  const now = through.clock.now();
  return {
    kind: "stream",
    stream: {
      kind: "stream",
      status: 206,
      headers: [...base, ["content-range", `bytes ${a}-${end}/${total}`]],
      body,
      length: end - a + 1,
    },
    first: first.obj,
    cache: first.cache,
    age: ageSeconds(first.obj, now),
  };
}

const EMPTY = new Uint8Array(0);
const rangeId = (a: number, b: number) => `${a}-${b}`;

/**
 * The prebuilt answer for [a, b] when the slice it starts in is cached, fresh, and holds a
 * template for exactly this range (answerPart): a clone, with one cache lookup. A template
 * is a copy of the bytes it was cut from, all of one version (serveSlices checked them), and
 * goes when its holder leaves the cache, as it does when slices disagree.
 */
export function templatedPart(
  through: ThroughContext,
  key: string,
  [a, b]: [number, number],
  now: number,
): Outcome | null {
  const obj = through.cache.peek(sliceKey(key, a - (a % SLICE_BYTES), SLICE_BYTES));
  const t = obj?.sent;
  if (t === undefined || t.extra !== rangeId(a, b) || !through.cache.isFresh(obj!, now)) {
    return null;
  }
  t.used = true;
  return {
    res: cloneAged(t, ageSeconds(obj!, now)),
    cache: "HIT",
    bytes: t.cost - TEMPLATE_OBJECT_COST,
  };
}

/**
 * The response for a part. A range hit again gets a template in the slot of the slice it
 * starts in (a slice is never served whole, so the slot is free; EdgeCache.rangeTemplates,
 * edge/cache/hit_templates.ts), kept while it is served: another range starting in that slice replaces
 * it only once it went a whole turn unserved.
 */
export function answerPart(
  through: ThroughContext,
  part: SlicePart,
  extra: readonly (readonly [string, string])[],
  now: number,
): Outcome {
  const s = part.first;
  const templates = through.cache.templates;
  if (part.obj.status !== 206 || part.cache !== "HIT" || !s.kept) {
    return objectResponse(part.obj, false, part.cache, templates, now, extra);
  }
  const t = s.sent;
  if (!s.hitBefore || t?.used) {
    s.hitBefore = true;
    if (t) t.used = false;
    return objectResponse(part.obj, false, part.cache, templates, now, extra);
  }
  const made = through.cache.rangeTemplates.admit(
    s,
    part.id,
    () => objectResponse(part.obj, false, "HIT", templates, part.obj.storedAt, extra).res,
    part.obj.bodyLength,
  );
  const res = cloneAged(made, ageSeconds(part.obj, now));
  return { res, cache: "HIT", bytes: part.obj.bodyLength };
}
