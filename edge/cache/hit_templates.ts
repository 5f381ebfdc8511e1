/**
 * Prebuilt hit responses for hot cached objects. A hit answers `template.clone()`: Deno's
 * Response constructor validates every header pair, copies the body and pre-builds a native
 * response for Deno.serve on each call, while a clone copies the already-valid header list,
 * shares the body and goes to the server's bytes-with-headers path. On the bench's 2 KB hit
 * that is ~80k req/s against ~60k for `new Response(body, { headers })` with a prebuilt
 * Headers object, and faster than a bare one-header Response (bench/ANALYSIS.md "Hit templates, start-up imports, what the noise hides").
 *
 * A template holds its own copy of the body (the constructor copies it), so templates are a
 * second, bounded cache: at most `maxBytes` of bodies and `maxCount` templates, evicted
 * first in, first out. An object that leaves the edge cache drops its template at once, so
 * no template outlives (or pins) the entry it was built for.
 */
import { checkOnce } from "../../lib/http/header_value.ts";

/** What a cached object carries while it has a template. */
export type HitTemplate = {
  /** The extra header list the template was built with (compared by identity). */
  extra: unknown;
  res: Response;
  /** Bytes charged against the bound: the body copy plus the objects around it. */
  cost: number;
  /** The holder's body as a view into its slab, made once (edge/cache/object.ts). */
  body?: Uint8Array<ArrayBuffer>;
  /** Served since eviction last passed it (set by the hit path): it gets a second chance. */
  used: boolean;
  /**
   * A clone carrying `Age: agedFor`, which the hits of that second of age clone (edge/respond.ts
   * cloneAged): setting Age on each hit's own clone built its Headers and checked the value.
   */
  aged?: Response;
  agedFor?: number;
};

/** Anything that can carry a template (a CachedObject). */
export type TemplateHolder = { sent?: HitTemplate };

/**
 * What a template costs besides its body copy: the Response and its inner records, the
 * header list and its Headers. Measured as process RSS: 8,192 templates of 2 KB bodies
 * added 39.2 MiB (4.9 KiB each), against 18.9 MiB for a bare Headers object each.
 */
export const TEMPLATE_OBJECT_COST = 2900;

export class HitTemplates {
  /** Holders with a template, oldest first (a Set keeps insertion order; delete is O(1)). */
  private holders = new Set<TemplateHolder>();
  private held = 0;

  constructor(readonly maxBytes: number, readonly maxCount: number) {}

  /** Bytes currently charged to templates. */
  get bytes(): number {
    return this.held;
  }

  /** Templates currently kept. */
  get count(): number {
    return this.holders.size;
  }

  /** Builds and keeps a template for `holder`, replacing one it had. */
  admit(
    holder: TemplateHolder,
    extra: unknown,
    build: () => Response,
    bodyBytes: number,
  ): HitTemplate {
    // a holder with another set's template keeps it (each set counts only its own)
    const foreign = holder.sent !== undefined && !this.holders.has(holder);
    this.release(holder);
    // The constructor pre-built a native response (a second body copy, and a finalizer);
    // reading `headers` drops it (checkOnce reads them). Clones never build one. Scanned once
    // here, the hits that clone it skip the last guard's scan (lib/http/response_guard.ts).
    const res = checkOnce(build());
    const t: HitTemplate = {
      extra,
      res,
      cost: bodyBytes + TEMPLATE_OBJECT_COST,
      used: false,
      aged: undefined,
      agedFor: 0,
    };
    if (t.cost > this.maxBytes || foreign) return t; // served once, never kept
    // CLOCK (second chance): the oldest goes unless it was served since eviction last
    // passed it; then it moves to the back, unmarked. Under a Zipf workload this keeps the
    // hot keys' templates where first in, first out evicted them in turn (simulated over
    // 10,000 keys with 6,800 templates: 8.3% of hits rebuilt a template, 6.5% with CLOCK).
    // Terminates: a moved template is unmarked, so the second pass evicts it.
    for (const old of this.holders) {
      if (this.held + t.cost <= this.maxBytes && this.holders.size < this.maxCount) break;
      const ot = old.sent!;
      if (ot.used) {
        ot.used = false;
        this.holders.delete(old);
        this.holders.add(old);
      } else this.release(old);
    }
    holder.sent = t;
    this.held += t.cost;
    this.holders.add(holder);
    return t;
  }

  /** Drops the holder's template (the object left the cache, or is rebuilt). */
  release(holder: TemplateHolder): void {
    const t = holder.sent;
    if (t === undefined || !this.holders.delete(holder)) return;
    holder.sent = undefined;
    this.held -= t.cost;
  }

  /** Drops every template (the edge cache was cleared). */
  clear(): void {
    for (const h of this.holders) h.sent = undefined;
    this.holders.clear();
    this.held = 0;
  }
}

/**
 * What one edge cache keeps for its hits (EdgeCache.templates): 32 MiB, 8,192 templates at
 * most (~6,800 of 2 KB bodies: under a Zipf workload over 10,000 keys, the keys that get ~96%
 * of the requests). With 16 MiB (~3,400) 19% of that workload's hits rebuilt a template first
 * in, first out (bench/ANALYSIS.md "A fair miss reference, churn at the bound, Zipf"). Each
 * cache has its own set, so one clearing or filling it leaves another's alone.
 */
export const hitTemplateSet = () => new HitTemplates(32 * 1024 * 1024, 8192);

/**
 * Range answers cut from cached slices (edge/slices.ts, EdgeCache.rangeTemplates): a slice is
 * never served whole, so its template slot holds its hot range's answer instead (the same
 * range asked again, as a video's segment is by every viewer). A 1 MiB answer through the
 * constructor ran ~1,200 req/s in a bare Deno.serve, a clone ~4,100 (bench/ANALYSIS.md "Ranges
 * of big media from cached slices"): a set of its own, so 1 MiB answers never push the small
 * hit templates out. 32 MiB, 1,024 at most.
 */
export const rangeTemplateSet = () => new HitTemplates(32 * 1024 * 1024, 1024);
