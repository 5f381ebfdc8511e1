/**
 * Exactly-once usage flushes: what this instance's flushes may have counted
 * that the aggregator still holds. A flush whose outcome is unknown (its COMMIT went
 * unanswered, or the deadline passed while it ran) is merged back by the aggregator and
 * would be counted again. Instead its key (instance, sequence) stays "in doubt" until the
 * target settles it in the database; a doubt that did commit becomes "owed": the next
 * batches are written without it. In memory only, like the deltas it describes.
 */
import { copyBucket } from "./buckets.ts";
import { mergeSketch } from "./latency_sketch.ts";
import type {
  ExposureDelta,
  HourBucket,
  PathDelta,
  RequestLogEntry,
  UsageBatch,
  UsageBucket,
} from "./types.ts";

/** Counts already in the database, copied (the aggregator mutates what it merges back). */
type Counted = {
  buckets: Map<string, UsageBucket>;
  /** The same counts per hour (usage_hourly), keyed `${tenantId}|${hour}`. */
  hours: Map<string, HourBucket>;
  exposures: Map<string, number>;
  logs: Set<RequestLogEntry>;
  /** Requests, errors and bytes per tenant-day path (path_counts). */
  paths: Map<string, PathDelta>;
};

const bucketKey = (b: UsageBucket) => `${b.tenantId}|${b.day}`;
const hourKey = (b: HourBucket) => `${b.tenantId}|${b.hour}`;
const pathKey = (p: PathDelta) => `${p.tenantId}|${p.day}|${p.path}`;
const exposureKey = (e: ExposureDelta) => `${e.experimentId}|${e.variantId}|${e.variantKey}`;
/** Every counter of a bucket (so counters added later are deducted too). */
const counters = (b: UsageBucket) =>
  (Object.keys(b) as (keyof UsageBucket)[]).filter((k) =>
    k !== "tenantId" && typeof b[k] === "number"
  ) as Exclude<keyof UsageBucket, "tenantId" | "day" | Sketch>[];
/** The latency sketches: counts per bucket, deducted bucket by bucket. */
type Sketch = "edgeLatency" | "originLatency";
const SKETCHES = ["edgeLatency", "originLatency"] as const satisfies readonly Sketch[];

/** Adds `b`'s counters and sketches into `into`. */
function addInto(into: UsageBucket, b: UsageBucket): void {
  for (const f of counters(b)) into[f] += b[f];
  for (const k of SKETCHES) if (b[k]) into[k] = mergeSketch(into[k] ?? [], b[k]);
}

function empty(): Counted {
  return {
    buckets: new Map(),
    hours: new Map(),
    exposures: new Map(),
    logs: new Set(),
    paths: new Map(),
  };
}

function copyOf(c: Counted): Counted {
  return {
    buckets: new Map([...c.buckets].map(([k, b]) => [k, copyBucket(b)])),
    hours: new Map([...c.hours].map(([k, b]) => [k, copyBucket(b)])),
    exposures: new Map(c.exposures),
    logs: new Set(c.logs),
    paths: new Map([...c.paths].map(([k, p]) => [k, { ...p }])),
  };
}

export class FlushLedger {
  /** This process's half of every key: sequences restart with the process. */
  readonly instanceId = crypto.randomUUID();
  #seq = 0;
  #doubts = new Map<number, Counted>();
  #owed = empty();

  nextSeq(): number {
    return ++this.#seq;
  }

  /** Keys of flushes whose outcome is unknown, oldest first. */
  get doubts(): number[] {
    return [...this.#doubts.keys()];
  }

  /** A write of `batch` under `seq` failed: it may or may not be in the totals. */
  doubt(seq: number, batch: UsageBatch): void {
    const c = empty();
    for (const b of batch.buckets) c.buckets.set(bucketKey(b), copyBucket(b));
    for (const b of batch.hours ?? []) c.hours.set(hourKey(b), copyBucket(b));
    for (const e of batch.exposures) c.exposures.set(exposureKey(e), e.exposures);
    for (const l of batch.logs) c.logs.add(l);
    for (const p of batch.paths ?? []) c.paths.set(pathKey(p), { ...p });
    this.#doubts.set(seq, c);
  }

  /** The database answered for `seq`: when it was counted, its contents are owed. */
  settle(seq: number, counted: boolean): void {
    const c = this.#doubts.get(seq);
    this.#doubts.delete(seq);
    if (!c || !counted) return;
    const owed = this.#owed;
    for (const [k, b] of c.buckets) {
      const cur = owed.buckets.get(k);
      if (!cur) owed.buckets.set(k, b);
      else addInto(cur, b);
    }
    for (const [k, b] of c.hours) {
      const cur = owed.hours.get(k);
      if (!cur) owed.hours.set(k, b);
      else addInto(cur, b);
    }
    for (const [k, n] of c.exposures) owed.exposures.set(k, (owed.exposures.get(k) ?? 0) + n);
    for (const l of c.logs) owed.logs.add(l);
    for (const [k, p] of c.paths) {
      const cur = owed.paths.get(k);
      if (!cur) owed.paths.set(k, p);
      else {
        cur.requests += p.requests;
        cur.errors += p.errors;
        cur.bytes += p.bytes;
      }
    }
  }

  /**
   * `batch` without what is owed, and `done()` to call once it is written (the owed
   * parts it carried are then settled; on failure they stay owed, since the aggregator
   * merges the whole batch back). Deltas are merged per key, so an owed key is either
   * wholly in a batch or not in it.
   */
  deduct(batch: UsageBatch): { batch: UsageBatch; done(): void } {
    const nothingOwed = this.#owed.buckets.size + this.#owed.hours.size +
        this.#owed.exposures.size + this.#owed.logs.size + this.#owed.paths.size === 0;
    if (nothingOwed) return { batch, done: () => {} };
    const rest = copyOf(this.#owed);
    const buckets = deductBuckets(batch.buckets, rest.buckets, bucketKey);
    const hours = batch.hours && deductBuckets(batch.hours, rest.hours, hourKey);
    const exposures: ExposureDelta[] = [];
    for (const e of batch.exposures) {
      const owed = rest.exposures.get(exposureKey(e));
      if (owed === undefined) {
        exposures.push(e);
        continue;
      }
      rest.exposures.delete(exposureKey(e));
      if (e.exposures > owed) exposures.push({ ...e, exposures: e.exposures - owed });
    }
    const logs = batch.logs.filter((l) => !rest.logs.delete(l));
    const paths = batch.paths && deductPaths(batch.paths, rest.paths);
    return {
      // Visitor rows merge idempotently: written twice, they count once, so none is owed.
      batch: {
        ...batch,
        buckets,
        ...(hours ? { hours } : {}),
        exposures,
        logs,
        ...(paths ? { paths } : {}),
      },
      done: () => void (this.#owed = rest),
    };
  }
}

/** `rows` less what `owed` holds for their keys (taken out of `owed`). */
function deductBuckets<B extends UsageBucket>(
  rows: B[],
  owed: Map<string, B>,
  key: (b: B) => string,
): B[] {
  const out: B[] = [];
  for (const b of rows) {
    const o = owed.get(key(b));
    if (!o) {
      out.push(b);
      continue;
    }
    owed.delete(key(b));
    const left = copyBucket(b);
    for (const f of counters(b)) left[f] = Math.max(0, b[f] - o[f]);
    let any = counters(left).some((f) => left[f] > 0);
    for (const k of SKETCHES) {
      const l = left[k];
      if (!l) continue;
      for (let i = 0; i < l.length; i++) l[i] = Math.max(0, l[i] - (o[k]?.[i] ?? 0));
      any ||= l.some((n) => n > 0);
    }
    if (any) out.push(left);
  }
  return out;
}

/** Path deltas less what `owed` holds for their keys (taken out of `owed`). */
function deductPaths(rows: PathDelta[], owed: Map<string, PathDelta>): PathDelta[] {
  const out: PathDelta[] = [];
  for (const p of rows) {
    const o = owed.get(pathKey(p));
    if (!o) {
      out.push(p);
      continue;
    }
    owed.delete(pathKey(p));
    const left = {
      ...p,
      requests: Math.max(0, p.requests - o.requests),
      errors: Math.max(0, p.errors - o.errors),
      bytes: Math.max(0, p.bytes - o.bytes),
    };
    if (left.requests > 0) out.push(left);
  }
  return out;
}
