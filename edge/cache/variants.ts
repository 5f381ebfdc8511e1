/**
 * Compressed copies of cached bodies. A compressible 200 (text, JSON, JS, CSS, SVG ...) gets a
 * br and a gzip copy made once, off the hit path, on its first hit (not at fill: most misses
 * are never hit again, and their copies and compression garbage were most of a miss burst's
 * peak RSS), so an object's first hit goes out identity. node:zlib compresses on its thread
 * pool, and the copies are charged to the object's LRU entry, so the memory bound counts every
 * variant. A hit then picks a copy by Accept-Encoding
 * (lib/http/encoding.ts) and answers it like any cached object, through its own hit template
 * (edge/cache/hit_templates.ts): no compression CPU per hit.
 *
 * Each coding is a view: a CachedObject with the parent's status, freshness and headers plus
 * `Vary: Accept-Encoding`, its Content-Encoding and an ETag of its own (a strong validator
 * names one representation, RFC 9110 §8.8.3). Ranges are cut from the identity body: a range
 * request never asks for a view.
 */
import { type Bytes, CachedObject, OVERHEAD } from "./object.ts";
import type { ByteLru } from "../../lib/cache/lru.ts";
import type { HitTemplates } from "./hit_templates.ts";
import {
  availableDictionary,
  type Coding,
  compressibleType,
  pickCoding,
  preferenceOf,
  RUNTIME_COMPRESSES,
  type StoredCoding,
  withNoTransform,
} from "../../lib/http/encoding.ts";
import {
  dczOf,
  dictionaries,
  type DictionaryPath,
  dictionaryPath,
  sha256Base64,
  useAsDictionary,
} from "./dictionaries.ts";

/** Smaller bodies are answered identity: a copy would save less than a packet. */
export const MIN_ENCODE_BYTES = 512;
/**
 * What a copy costs besides its bytes, charged to the object's LRU entry: its view (a
 * CachedObject), header list, typed array and buffer. Measured as heap per entry over 5,000
 * 2 KB JSON entries once their copies were made: ~1,000 bytes per copy.
 */
export const COPY_COST = 1024;
/**
 * Smaller API answers keep no dictionary: their gzip is a few hundred bytes already, and the
 * kept versions would cost more memory than the deltas save.
 */
const MIN_DICTIONARY_BYTES = 4096;
/**
 * Compressions running at once: one, so a burst of fills (each 40 KB body ~3 ms of br and gzip)
 * takes at most one core from the hits and misses.
 */
const PARALLEL = 1;
/**
 * Brotli quality of the stored copy: 7 is within 3 % of 9's size at a third of its time
 * (40 KB CMS list: 7,455 bytes in 1.9 ms against 7,269 in 5.4 ms; 11 takes 68 ms).
 */
const BROTLI_QUALITY = 7;
/** Objects waiting for their copies at most; past it an object is queued again on a hit. */
const QUEUE_MAX = 4096;

const QUEUED = 0;
const DONE = 1;
/** Not queued (not hit yet, the queue was full, or it left the cache while queued): a hit queues it. */
const WAITING = 2;

/** The codings of one cached object: its views, made on first use. */
export class Codings {
  state = QUEUED;
  /** One instance for many objects whose first hit has not come yet (`unmade`): never mutated. */
  shared = false;
  constructor(
    readonly lru: ByteLru<CachedObject>,
    /** An API answer's dictionary path (edge/cache/dictionaries.ts); null for other objects. */
    readonly dict: DictionaryPath | null,
  ) {}
  identity: CodedView | undefined = undefined;
  br: CodedView | undefined = undefined;
  gzip: CodedView | undefined = undefined;
  /** The delta against the previous version, and that version's SHA-256 (base64). */
  dcz: CodedView | undefined = undefined;
  dczHash: string | null = null;

  /** Copies made on the first hit (WAITING); a small body has none to make (DONE). */
  waiting(small: boolean): this {
    this.state = small ? DONE : WAITING;
    return this;
  }
}

/** One representation of a cached object: the identity body, or a compressed copy of it. */
export class CodedView extends CachedObject {
  constructor(
    readonly of: CachedObject,
    readonly coding: Coding | "dcz",
    headers: [string, string][],
    body: Bytes,
    etag: string | null,
  ) {
    super(
      of.status,
      headers,
      body,
      of.storedAt,
      of.ttlMs,
      body.byteLength + OVERHEAD,
      etag,
      of.lastModified,
      of.contentType,
      of.noCdn,
    );
  }

  /** The identity view reads its parent's body (in a slab, edge/cache/slabs.ts). */
  override get body(): Bytes {
    return this.coding === "identity" ? this.of.body : super.body;
  }

  override get readable(): boolean {
    return this.of.readable;
  }

  /** Templated while the parent is cached (its drop releases every view's template). */
  override get kept(): boolean {
    return this.of.kept;
  }
}

/**
 * True for an object worth compressed copies: a 200 of a compressible type, not encoded
 * already, not marked no-transform by its origin (RFC 9111 §5.2.2.6), not a part.
 */
export function encodable(obj: CachedObject): boolean {
  if (obj.status !== 200 || !compressibleType(obj.contentType)) return false;
  for (const [k, v] of obj.headers) {
    if (k === "content-encoding" || k === "content-range") return false;
    if (k === "cache-control" && /\bno-transform\b/i.test(v)) return false;
  }
  return true;
}

/**
 * Marks a stored object for compressed copies (store.ts, when the object enters the memory
 * tier); its first hit queues their making (codedFor). Small bodies get no copies.
 */
export function encodeLater(obj: CachedObject, lru: ByteLru<CachedObject>, key: string): void {
  if (obj.codings !== undefined || !encodable(obj)) return;
  const small = obj.bodyLength < MIN_ENCODE_BYTES;
  // A small body is always identity, so it varies on nothing; only a runtime that would
  // compress it on its own needs its identity view (no-transform, see noTransform).
  if (small && !RUNTIME_COMPRESSES) return;
  const dict = obj.bodyLength < MIN_DICTIONARY_BYTES ? null : dictionaryPath(key);
  obj.codings = dict === null ? unmade(lru, small) : new Codings(lru, dict).waiting(small);
}

/**
 * Codings without a dictionary are shared until the object's first hit gives it its own
 * (codedFor): most misses are never hit, and an instance each was ~90 heap bytes of every
 * entry, which V8's old generation holds about four times over between full collections.
 */
const unmadeOf = new WeakMap<ByteLru<CachedObject>, [Codings, Codings]>();

function unmade(lru: ByteLru<CachedObject>, small: boolean): Codings {
  let pair = unmadeOf.get(lru);
  if (pair === undefined) {
    pair = [new Codings(lru, null).waiting(false), new Codings(lru, null).waiting(true)];
    for (const c of pair) c.shared = true;
    unmadeOf.set(lru, pair);
  }
  return pair[small ? 1 : 0];
}

type Job = { obj: CachedObject; c: Codings; lru: ByteLru<CachedObject> };
const queue: Job[] = [];
let running = 0;

function enqueue(obj: CachedObject, c: Codings, lru: ByteLru<CachedObject>): void {
  if (queue.length >= QUEUE_MAX) {
    c.state = WAITING;
    return;
  }
  c.state = QUEUED;
  queue.push({ obj, c, lru });
  if (running < PARALLEL) void drain();
}

/** Lazily loaded: the first node: module costs start-up time (edge/http1/decode.ts). */
let zlib: Promise<typeof import("node:zlib")> | undefined;

async function drain(): Promise<void> {
  running++;
  try {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const { obj, c, lru } = job;
      if (!obj.kept || !obj.readable) {
        c.state = WAITING;
        continue;
      }
      try {
        const body = obj.body.slice();
        const copies = await compress(body);
        if (c.dict !== null) await withDelta(c.dict, body, copies);
        attach(obj, c, lru, copies);
      } catch {
        c.state = DONE; // an unreadable body stays identity
      }
    }
  } finally {
    running--;
    if (running === 0 && queue.length === 0) { for (const w of idle.splice(0)) w(); }
  }
}

const idle: (() => void)[] = [];

/** Resolves once no copies are queued or being made (tests, benches). */
export function encodingsSettled(): Promise<void> {
  if (running === 0 && queue.length === 0) return Promise.resolve();
  return new Promise((ok) => idle.push(ok));
}

type Copies = { br: Bytes; gzip: Bytes; dcz?: Bytes; dczHash?: string };

/**
 * Records an API body as its path's latest version and adds the dcz copy against the version
 * before it, when there is one (edge/cache/dictionaries.ts).
 */
async function withDelta(dict: DictionaryPath, body: Bytes, copies: Copies): Promise<void> {
  const hash = await sha256Base64(body);
  const prev = dictionaries.record(dict, { hash, bytes: body });
  if (prev === null) return;
  copies.dcz = await dczOf(body, prev);
  copies.dczHash = prev.hash;
}

/** br (BROTLI_QUALITY) and gzip (level 6) of `body`. */
async function compress(body: Bytes): Promise<Copies> {
  const z = await (zlib ??= import("node:zlib"));
  const br = new Promise<Uint8Array>((ok, no) =>
    z.brotliCompress(body, {
      params: {
        [z.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [z.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }, (e, out) => e ? no(e) : ok(out))
  );
  const gz = new Promise<Uint8Array>((ok, no) =>
    z.gzip(body, { level: 6 }, (e, out) => e ? no(e) : ok(out))
  );
  // Copied out: a zlib result can be a view into a larger buffer (edge/cache/object.ts ownedBytes).
  const [b, g] = await Promise.all([br, gz]);
  return { br: new Uint8Array(b), gzip: new Uint8Array(g) };
}

/** Keeps the copies that are smaller than the body, charged to the object's LRU entry. */
function attach(
  obj: CachedObject,
  c: Codings,
  lru: ByteLru<CachedObject>,
  copies: Copies,
): void {
  c.state = DONE;
  if (!obj.kept) return;
  const n = obj.bodyLength;
  const br = copies.br.byteLength < n ? copies.br : null;
  const gzip = copies.gzip.byteLength < n ? copies.gzip : null;
  const dcz = copies.dcz !== undefined && copies.dcz.byteLength < n ? copies.dcz : null;
  let delta = 0;
  for (const b of [br, gzip, dcz]) if (b) delta += b.byteLength + COPY_COST;
  if (delta === 0 || !lru.grow(obj, delta)) return;
  if (br) c.br = view(obj, "br", br);
  if (gzip) c.gzip = view(obj, "gzip", gzip);
  if (dcz) {
    c.dcz = view(obj, "dcz", dcz);
    c.dczHash = copies.dczHash!;
  }
}

/**
 * The Vary value of a view: the object's own names plus Accept-Encoding, and
 * Available-Dictionary for an answer that has dictionary deltas (RFC 9842 §6.2).
 */
function varyWithEncoding(headers: readonly [string, string][], dict: boolean): string {
  const own = headers.find((h) => h[0] === "vary")?.[1]?.trim() ?? "";
  const names = own === "" ? [] : [own];
  if (!/\baccept-encoding\b/i.test(own)) names.push("accept-encoding");
  if (dict) names.push("available-dictionary");
  return names.join(", ");
}

/** `W/"x"` -> `W/"x-br"`: each coding's copy is a representation of its own. */
function codedEtag(etag: string | null, coding: StoredCoding | "dcz"): string | null {
  if (etag === null || !etag.endsWith('"')) return null;
  return `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * No automatic compression of an identity answer by a runtime that compresses on its own
 * (lib/http/encoding.ts RUNTIME_COMPRESSES): the edge decided identity (a small body, a client
 * that rated identity higher, copies not made yet), and Deno honours no-transform.
 */
function noTransform(headers: [string, string][]): [string, string][] {
  const i = headers.findIndex((h) => h[0] === "cache-control");
  if (i < 0) return [...headers, ["cache-control", withNoTransform(null)]];
  const out = headers.slice();
  out[i] = ["cache-control", withNoTransform(headers[i][1])];
  return out;
}

function view(obj: CachedObject, coding: Coding | "dcz", body: Bytes | null): CodedView {
  const headers: [string, string][] = [];
  for (const h of obj.headers) {
    if (h[0] === "vary" || (h[0] === "etag" && coding !== "identity")) continue;
    headers.push(h);
  }
  const dict = obj.codings?.dict ?? null;
  headers.push(["vary", varyWithEncoding(obj.headers, dict !== null)]);
  if (dict !== null) headers.push(["use-as-dictionary", useAsDictionary(dict)]);
  if (coding === "identity") {
    const hs = RUNTIME_COMPRESSES ? noTransform(headers) : headers;
    return new CodedView(obj, coding, hs, EMPTY, obj.etag);
  }
  const etag = codedEtag(obj.etag, coding);
  if (etag !== null) headers.push(["etag", etag]);
  headers.push(["content-encoding", coding]);
  return new CodedView(obj, coding, headers, body!, etag);
}

const EMPTY = new Uint8Array(0);

/**
 * The representation of `obj` for a request: a compressed copy the request accepts, else the
 * identity view (with Vary). Objects without codings are returned as they are. Reads the
 * request's Accept-Encoding only for objects that have codings. A hit (`hit`) queues the
 * copies not made yet; a miss's identity view is not kept (most misses are never hit).
 */
export function codedFor(obj: CachedObject, req: Request, hit: boolean): CachedObject {
  let c = obj.codings;
  if (c === undefined || obj instanceof CodedView) return obj;
  if (!hit && c.identity === undefined) return view(obj, "identity", null);
  if (c.shared) {
    const own = new Codings(c.lru, null);
    own.state = c.state;
    obj.codings = c = own;
  }
  if (c.state === WAITING && obj.kept) enqueue(obj, c, c.lru);
  let pick: Coding = "identity";
  if (c.br !== undefined || c.gzip !== undefined) {
    pick = pickCoding(
      preferenceOf(req.headers.get("accept-encoding")),
      (k) => c[k] !== undefined,
    );
  }
  if (c.dcz !== undefined) {
    const p = preferenceOf(req.headers.get("accept-encoding"));
    // RFC 9842 §6.2: only for the dictionary the client says it holds; anything else, br/gzip
    if (p.dcz && availableDictionary(req.headers.get("available-dictionary")) === c.dczHash) {
      return c.dcz;
    }
  }
  if (pick !== "identity") return c[pick]!;
  return c.identity ??= view(obj, "identity", null);
}

/** Releases the hit templates of every view (the object left the memory tier). */
export function dropCodings(obj: CachedObject, templates: HitTemplates): void {
  const c = obj.codings;
  if (c === undefined) return;
  if (c.identity) templates.release(c.identity);
  if (c.br) templates.release(c.br);
  if (c.gzip) templates.release(c.gzip);
  if (c.dcz) templates.release(c.dcz);
}
