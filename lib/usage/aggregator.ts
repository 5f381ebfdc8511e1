/**
 * The in-memory usage aggregator behind the edge's UsageSink (DESIGN "Request flow" 5).
 * `record()` is synchronous and never touches the database, so a visitor never waits
 * on Postgres. Deltas are folded into per-(tenant, UTC hour) buckets (summed into
 * per-day rows at flush time, so a request costs one bucket update) and per-variant
 * exposure counters, request logs keep every error and sample successes, and everything is flushed in batches:
 * every flushIntervalMs, or early once flushMaxEntries entries are pending. A failed
 * flush merges its batch back for the next try; pending entries are bounded and every
 * entry dropped at the bound is counted.
 */
import type { UsageRecord, UsageSink } from "../../edge/types.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type {
  ExposureDelta,
  HourBucket,
  RequestLogEntry,
  UsageBatch,
  UsageBucket,
  UsageFlushTarget,
} from "./types.ts";
import { ThresholdGate } from "./threshold_gate.ts";
import { addBucket, byteCount, emptyBucket, logEntry } from "./buckets.ts";
import type { AggregatorStatus } from "./aggregator_schema.ts";
import type { RequestCounters } from "../metrics/request_counters.ts";
import { addLatency, LATENCY_BUCKETS, latencyBucket } from "./latency.ts";

/** Counts the answer's 5xx and time into its variant's exposure counter (guardrails). */
function addExposureHealth(e: ExposureDelta, r: UsageRecord): ExposureDelta {
  if (r.status >= 500) e.errors++;
  const b = latencyBucket(r.durationMs);
  e.latency[b] = (e.latency[b] ?? 0) + 1;
  return e;
}

const noLatency = () => new Array<number>(LATENCY_BUCKETS).fill(0);

/** Days request logs are kept; older rows are pruned after flushes (decisions.md). */
export const REQUEST_LOG_RETENTION_DAYS = 30;
/** Refused-bot logs kept per tenant per minute per instance (decisions.md "Request logs"). */
export const BOT_LOGS_PER_MINUTE = 60;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type AggregatorOptions = {
  target: UsageFlushTarget;
  clock: Clock;
  log: Logger;
  flushIntervalMs: number;
  flushMaxEntries: number;
  requestLogSampleRate: number;
  /**
   * Sampled logs kept per tenant per second (0 = no cap). A share alone grows with
   * traffic: 1% of 40k requests/s is 400 rows/s, which an embedded database writes on
   * the event loop's thread and which no one reads. Logs over the cap count as skipped.
   * @default 0
   */
  requestLogMaxPerSecond?: number;
  /** Logs of refused bots kept per tenant per minute (errors are all kept). @default 60 */
  botLogsPerMinute?: number;
  /** This instance's monotonic counters for GET /metrics, fed from every record. */
  metrics?: RequestCounters | null;
  /** Pending entries kept across failed flushes. @default 10 × flushMaxEntries */
  maxPendingEntries?: number;
  /** How often request logs are pruned. @default 1 hour */
  pruneIntervalMs?: number;
  retentionDays?: number;
  thresholdGate?: ThresholdGate;
  /** Uniform [0, 1) source for sampling; injectable for tests. */
  random?: () => number;
};

/**
 * Called after each successful flush with the tenants whose usage moved. The check maps
 * them to the accounts (orgs) it evaluates and asks `gate.allow(org, now)` before each,
 * so an org is evaluated at most once per gate interval (lib/billing/quota_check.ts).
 */
export type ThresholdCheck = (
  tenantIds: number[],
  gate: ThresholdGate,
  now: number,
) => Promise<void>;

export class UsageAggregator implements UsageSink {
  readonly gate: ThresholdGate;
  #o: Required<Omit<AggregatorOptions, "thresholdGate">>;
  /** Pending counters per `${tenantId}|${hour start ms}`. */
  #buckets = new Map<string, HourBucket>();
  #exposures = new Map<string, ExposureDelta>();
  #logs: RequestLogEntry[] = [];
  #enabled = true;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The one early flush scheduled past flushMaxEntries (records arriving meanwhile join it). */
  #earlyFlush: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> | null = null;
  #thresholdCheck: ThresholdCheck | null = null;
  #c = {
    enqueuedDeltas: 0,
    droppedWhenDisabled: 0,
    droppedOnOverflow: 0,
    sampledLogs: 0,
    skippedLogs: 0,
    flushes: 0,
    flushErrors: 0,
    lastFlushAt: null as number | null,
    lastFlushDurationMs: null as number | null,
    lastFlushBucketCount: 0,
    lastFlushLogCount: 0,
    lastError: null as string | null,
    prunes: 0,
    lastPruneAt: null as number | null,
    lastPruneRowsDeleted: 0,
  };

  constructor(opts: AggregatorOptions) {
    this.gate = opts.thresholdGate ?? new ThresholdGate({ enabled: false });
    this.#o = {
      maxPendingEntries: opts.flushMaxEntries * 10,
      pruneIntervalMs: 3_600_000,
      requestLogMaxPerSecond: 0,
      botLogsPerMinute: BOT_LOGS_PER_MINUTE,
      metrics: null,
      retentionDays: REQUEST_LOG_RETENTION_DAYS,
      random: Math.random,
      ...opts,
    };
  }

  get pendingEntries(): number {
    return this.#buckets.size + this.#exposures.size + this.#logs.length;
  }

  /** Registers the threshold (plan-limit) check run through the gate after flushes. */
  setThresholdCheck(fn: ThresholdCheck | null): void {
    this.#thresholdCheck = fn;
    this.gate.enabled = fn !== null;
  }

  /** UsageSink: folds one request in. Synchronous and never throws into the request. */
  record(r: UsageRecord): void {
    try {
      this.#o.metrics?.record(r);
      this.#record(r);
    } catch (err) {
      this.#o.log.warn("usage record dropped", { error: String(err) });
    }
  }

  #record(r: UsageRecord): void {
    if (!this.#enabled) {
      this.#c.droppedWhenDisabled++;
      return;
    }
    if (!Number.isSafeInteger(r.tenantId) || r.tenantId <= 0) return;
    const full = this.pendingEntries >= this.#o.maxPendingEntries;
    const hour = this.#hourOf(r.ts);
    const key = `${r.tenantId}|${hour}`;
    let b = this.#buckets.get(key);
    if (!b) {
      if (full) return void this.#c.droppedOnOverflow++;
      b = { ...emptyBucket(r.tenantId, this.#dayOf(hour)), hour: this.#hourText };
      this.#buckets.set(key, b);
    }
    if (r.blocked) {
      // a refused bot costs the tenant nothing: counted apart, not as a request or bandwidth
      b.blocked++;
    } else if (!r.background) {
      // (a background refresh, edge/mod.ts recordBackground, adds its origin request only)
      b.requests++;
      b.bytes += byteCount(r.bytes);
      if (r.cache === "HIT") b.hits++;
      else if (r.cache === "MISS") b.misses++;
      else if (r.cache === "STALE") b.stale++;
      else if (r.cache === "BYPASS") b.bypass++;
      const st = r.status;
      if (st >= 500) {
        b.errors++;
        b.status5xx++;
      } else if (st >= 400) b.status4xx++;
      else if (st >= 300) b.status3xx++;
      else if (st >= 200) b.status2xx++;
      else b.status1xx++;
    }
    if (r.originRequests) {
      b.originRequests += r.originRequests;
      b.originBytes += byteCount(r.originBytes ?? 0);
    }
    this.#c.enqueuedDeltas++;

    const x = r.experiment;
    if (x) {
      const xk = `${x.experimentId}|${x.variantId}|${x.variantKey}`;
      const e = this.#exposures.get(xk);
      if (e) {
        e.exposures++;
        e.lastSeenAt = Math.max(e.lastSeenAt, r.ts);
        addExposureHealth(e, r);
      } else if (full) this.#c.droppedOnOverflow++;
      else {
        const fresh = { tenantId: r.tenantId, ...x, exposures: 1, lastSeenAt: r.ts };
        this.#exposures.set(
          xk,
          addExposureHealth({ ...fresh, errors: 0, latency: noLatency() }, r),
        );
      }
    }

    if (!r.background && this.#keepLog(r)) {
      if (full) this.#c.droppedOnOverflow++;
      else {
        this.#logs.push(logEntry(r));
        this.#c.sampledLogs++;
      }
    } else this.#c.skippedLogs++;

    if (
      this.pendingEntries >= this.#o.flushMaxEntries && !this.#flushing &&
      this.#earlyFlush === undefined
    ) {
      // Early flush, off the request's path.
      this.#earlyFlush = setTimeout(() => {
        this.#earlyFlush = undefined;
        void this.flush();
      }, 0);
    }
  }

  /**
   * Every error is kept (status >= 400, upstream failures included: they answer 502/504),
   * except refused bots, kept up to botLogsPerMinute per tenant; successes are sampled
   * at requestLogSampleRate under the per-second cap (docs/decisions.md "Request logs").
   */
  #keepLog(r: UsageRecord): boolean {
    if (r.blocked) return this.#underBotCap(r.tenantId, r.ts);
    if (r.status >= 400) return true;
    return this.#o.requestLogSampleRate > 0 &&
      this.#o.random() < this.#o.requestLogSampleRate && this.#underLogCap(r.tenantId, r.ts);
  }

  // Per tenant: [minute, refused-bot logs kept in it].
  #botCounts = new Map<number, [number, number]>();
  #underBotCap(tenantId: number, ts: number): boolean {
    const minute = Math.floor(ts / 60_000);
    const c = this.#botCounts.get(tenantId);
    if (!c || c[0] !== minute) {
      if (this.#botCounts.size > 10_000) this.#botCounts.clear();
      this.#botCounts.set(tenantId, [minute, 1]);
      return this.#o.botLogsPerMinute > 0;
    }
    return c[1]++ < this.#o.botLogsPerMinute;
  }

  // Per tenant: [second, logs kept in it]. Only sampled requests reach this.
  #logCounts = new Map<number, [number, number]>();
  #underLogCap(tenantId: number, ts: number): boolean {
    const cap = this.#o.requestLogMaxPerSecond;
    if (cap <= 0) return true;
    const second = Math.floor(ts / 1000);
    const c = this.#logCounts.get(tenantId);
    if (!c || c[0] !== second) {
      // A new second: old seconds of other tenants are dropped now and then, so the map
      // stays as small as the set of tenants logging right now.
      if (this.#logCounts.size > 10_000) this.#logCounts.clear();
      this.#logCounts.set(tenantId, [second, 1]);
      return true;
    }
    return c[1]++ < cap;
  }

  // The hot path formats an hour once per hour, not once per request (bench/PROFILE.md).
  #hourStart = Number.NaN;
  #hourText = "";
  /** The start (ms) of the UTC hour of `ts`; #hourText is its ISO form. */
  #hourOf(ts: number): number {
    const start = ts - (((ts % HOUR_MS) + HOUR_MS) % HOUR_MS);
    if (start !== this.#hourStart) {
      this.#hourText = new Date(start).toISOString();
      this.#hourStart = start;
    }
    return start;
  }

  #dayStart = Number.NaN;
  #dayText = "";
  #dayOf(ts: number): string {
    const start = ts - (((ts % DAY_MS) + DAY_MS) % DAY_MS);
    if (start !== this.#dayStart) {
      this.#dayText = new Date(start).toISOString().slice(0, 10);
      this.#dayStart = start;
    }
    return this.#dayText;
  }

  /** Starts the interval flush loop. */
  start(): void {
    if (this.#timer !== undefined) return;
    const timer = setInterval(() => void this.flush(), this.#o.flushIntervalMs);
    // The loop alone must not keep a process (or a test) alive; stop() flushes at shutdown.
    Deno.unrefTimer(timer as unknown as number);
    this.#timer = timer;
  }

  /** Stops the loop, refuses further records, and flushes what is pending (shutdown). */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#earlyFlush); // the flush below takes what it would have
    this.#earlyFlush = undefined;
    this.#enabled = false;
    await this.flush();
  }

  /** Flushes everything pending in batches of at most flushMaxEntries. Never throws. */
  flush(): Promise<void> {
    // One flush at a time; a caller arriving mid-flush waits for it and then runs its own.
    const run = (this.#flushing ?? Promise.resolve()).then(() => this.#flushAll());
    const tracked = run.finally(() => {
      if (this.#flushing === tracked) this.#flushing = null;
    });
    this.#flushing = tracked;
    return tracked;
  }

  async #flushAll(): Promise<void> {
    if (this.pendingEntries === 0) return;
    const t0 = performance.now();
    let buckets = 0;
    let logs = 0;
    const tenants = new Set<number>();
    // Bounded: at most the batches pending now, so records arriving meanwhile wait for the next run.
    let rounds = Math.ceil(this.pendingEntries / this.#o.flushMaxEntries);
    while (rounds-- > 0 && this.pendingEntries > 0) {
      const batch = this.#take(this.#o.flushMaxEntries);
      try {
        const { discarded } = await this.#o.target.write(batch);
        if (discarded > 0) this.#c.droppedOnOverflow += discarded;
      } catch (err) {
        this.#putBack(batch);
        this.#c.flushErrors++;
        this.#c.lastError = err instanceof Error ? err.message.slice(0, 500) : String(err);
        this.#o.log.warn("usage flush failed; deltas kept for the next try", {
          error: this.#c.lastError,
          pending: this.pendingEntries,
        });
        return;
      }
      buckets += (batch.hours?.length ?? 0) + batch.exposures.length;
      logs += batch.logs.length;
      for (const b of batch.buckets) tenants.add(b.tenantId);
    }
    this.#c.flushes++;
    this.#c.lastFlushAt = this.#o.clock.now();
    this.#c.lastFlushDurationMs = Math.round((performance.now() - t0) * 100) / 100;
    this.#c.lastFlushBucketCount = buckets;
    this.#c.lastFlushLogCount = logs;
    this.#c.lastError = null;
    await this.#afterFlush(tenants);
  }

  /**
   * Removes up to `max` entries from pending: hour buckets first (with the day rows they
   * sum to), then exposures, then logs.
   */
  #take(max: number): UsageBatch {
    const hours: HourBucket[] = [];
    const days = new Map<string, UsageBucket>();
    const batch: UsageBatch = { buckets: [], hours, logs: [], exposures: [] };
    let room = max;
    for (const [k, b] of this.#buckets) {
      if (room-- <= 0) break;
      hours.push(b);
      this.#buckets.delete(k);
      const dk = `${b.tenantId}|${b.day}`;
      const d = days.get(dk);
      if (d) addBucket(d, b);
      else {
        const { hour: _h, ...day } = b;
        days.set(dk, day);
      }
    }
    batch.buckets = [...days.values()];
    for (const [k, e] of this.#exposures) {
      if (room-- <= 0) break;
      batch.exposures.push(e);
      this.#exposures.delete(k);
    }
    if (room > 0) batch.logs = this.#logs.splice(0, room);
    return batch;
  }

  /** Merges a failed batch back, adding to deltas that arrived meanwhile; bounded. */
  #putBack(batch: UsageBatch): void {
    // The day rows are sums of the hours: only the hours go back.
    for (const b of batch.hours ?? []) {
      const key = `${b.tenantId}|${Date.parse(b.hour)}`;
      const cur = this.#buckets.get(key);
      if (cur) addBucket(cur, b);
      else this.#buckets.set(key, b);
    }
    for (const e of batch.exposures) {
      const key = `${e.experimentId}|${e.variantId}|${e.variantKey}`;
      const cur = this.#exposures.get(key);
      if (cur) {
        cur.exposures += e.exposures;
        cur.lastSeenAt = Math.max(cur.lastSeenAt, e.lastSeenAt);
        cur.errors += e.errors;
        addLatency(cur.latency, e.latency);
      } else this.#exposures.set(key, e);
    }
    this.#logs = batch.logs.concat(this.#logs);
    // Counters (buckets, exposures) are worth more than individual sampled logs: shed oldest logs.
    const over = this.pendingEntries - this.#o.maxPendingEntries;
    if (over > 0) {
      const n = Math.min(over, this.#logs.length);
      this.#logs.splice(0, n);
      this.#c.droppedOnOverflow += n;
    }
  }

  async #afterFlush(tenants: Set<number>): Promise<void> {
    const now = this.#o.clock.now();
    const check = this.#thresholdCheck;
    if (check && tenants.size > 0) {
      // Quota state is fail-open: a failed check leaves the published snapshots as they were.
      await check([...tenants], this.gate, now).catch((err) =>
        this.#o.log.warn("threshold check failed", { error: String(err) })
      );
    } else for (const id of tenants) this.gate.allow(`tenant:${id}`, now); // skippedDisabled
    const prune = this.#o.target.pruneLogs;
    const due = this.#c.lastPruneAt === null ||
      now - this.#c.lastPruneAt >= this.#o.pruneIntervalMs;
    if (!prune || !due) return;
    try {
      const deleted = await prune.call(
        this.#o.target,
        new Date(now - this.#o.retentionDays * DAY_MS),
      );
      this.#c.prunes++;
      this.#c.lastPruneAt = now;
      this.#c.lastPruneRowsDeleted = deleted;
    } catch (err) {
      this.#o.log.warn("request log prune failed", { error: String(err) });
    }
  }

  /** SPEC's `aggregator` fields of GET /api/admin/usage-aggregator-status (in-memory only). */
  status(): AggregatorStatus {
    const c = this.#c;
    const iso = (t: number | null) => t === null ? null : new Date(t).toISOString();
    return {
      enabled: this.#enabled,
      flushIntervalMs: this.#o.flushIntervalMs,
      flushMaxEntries: this.#o.flushMaxEntries,
      requestLogSampleRate: this.#o.requestLogSampleRate,
      enqueuedDeltas: c.enqueuedDeltas,
      droppedWhenDisabled: c.droppedWhenDisabled,
      sampledLogs: c.sampledLogs,
      skippedLogs: c.skippedLogs,
      flushes: c.flushes,
      flushErrors: c.flushErrors,
      lastFlushAt: iso(c.lastFlushAt),
      lastFlushDurationMs: c.lastFlushDurationMs,
      lastFlushBucketCount: c.lastFlushBucketCount,
      lastFlushLogCount: c.lastFlushLogCount,
      lastError: c.lastError,
      pendingBuckets: this.#buckets.size + this.#exposures.size,
      pendingLogs: this.#logs.length,
      prunes: c.prunes,
      lastPruneAt: iso(c.lastPruneAt),
      lastPruneRowsDeleted: c.lastPruneRowsDeleted,
      /** Not in SPEC's list: entries shed at the pending bound or discarded by the target. */
      droppedOnOverflow: c.droppedOnOverflow,
    };
  }
}
