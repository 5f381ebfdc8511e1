/**
 * The in-memory usage aggregator behind the edge's UsageSink (DESIGN "Request flow" 5).
 * `record()` is synchronous and never touches the database, so a visitor never waits
 * on Postgres. Deltas are folded into per-(tenant, UTC hour) buckets with their latency
 * sketches and per-variant exposure counters (pending_counters.ts), request logs keep
 * every error and sample successes (log_sampler.ts), and this class flushes everything
 * in batches: every flushIntervalMs, or early once flushMaxEntries entries are pending.
 * A failed flush merges its batch back for the next try; pending entries are bounded and
 * every entry dropped at the bound is counted.
 */
import type { UsageRecord, UsageSink } from "../../edge/types.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { RequestLogEntry, UsageBatch, UsageFlushTarget } from "./types.ts";
import { ThresholdGate } from "./threshold_gate.ts";
import { logEntry } from "./buckets.ts";
import type { AggregatorStatus } from "./aggregator_schema.ts";
import type { RequestCounters } from "../metrics/request_counters.ts";
import { DROPPED, PendingCounters } from "./pending_counters.ts";
import { LogSampler } from "./log_sampler.ts";
import { PendingVisitors } from "./visitor_windows.ts";
import { PendingPaths } from "./pending_paths.ts";
import { TenantSlots } from "./tenant_slots.ts";

/** Days request logs are kept; older rows are pruned after flushes (decisions.md). */
export const REQUEST_LOG_RETENTION_DAYS = 30;
/** Refused-bot logs kept per tenant per minute per instance (decisions.md "Request logs"). */
export const BOT_LOGS_PER_MINUTE = 60;
const DAY_MS = 86_400_000;

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
  /** The tenants' slots, which the per-request counters index by (tenant_slots.ts). */
  #slots = new TenantSlots();
  #counters = new PendingCounters(this.#slots);
  /** Experiment visitors per arm and window (guardrails); bounded on their own. */
  #visitors = new PendingVisitors();
  /** Requests per path per tenant-day (Top paths); bounded on their own (pending_paths.ts). */
  #paths: PendingPaths;
  #logs: RequestLogEntry[] = [];
  #sampler: LogSampler;
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
    this.#paths = new PendingPaths(this.#o.maxPendingEntries, this.#slots);
    this.#sampler = new LogSampler({
      sampleRate: this.#o.requestLogSampleRate,
      maxPerSecond: this.#o.requestLogMaxPerSecond,
      botsPerMinute: this.#o.botLogsPerMinute,
      random: this.#o.random,
    });
  }

  get pendingEntries(): number {
    return this.#counters.size + this.#logs.length;
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
    this.#visitors.add(r);
    const slot = this.#slots.of(r.tenantId);
    this.#paths.add(r, slot);
    const full = this.pendingEntries >= this.#o.maxPendingEntries;
    const dropped = this.#counters.add(r, full, slot);
    if (dropped === DROPPED) return void this.#c.droppedOnOverflow++;
    this.#c.droppedOnOverflow += dropped;
    this.#c.enqueuedDeltas++;

    if (this.#sampler.keep(r)) {
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
    clearTimeout(this.#earlyFlush); // this flush takes what the early one would have
    this.#earlyFlush = undefined;
    // One flush at a time; a caller arriving mid-flush waits for it and then runs its own.
    const run = (this.#flushing ?? Promise.resolve()).then(() => this.#flushAll());
    const tracked = run.finally(() => {
      if (this.#flushing === tracked) this.#flushing = null;
    });
    this.#flushing = tracked;
    return tracked;
  }

  async #flushAll(): Promise<void> {
    const pending = () => Math.max(this.pendingEntries, this.#visitors.size, this.#paths.size);
    if (pending() === 0) return;
    const t0 = performance.now();
    let buckets = 0;
    let logs = 0;
    const tenants = new Set<number>();
    // Bounded: at most the batches pending now, so records arriving meanwhile wait for the next run.
    let rounds = Math.ceil(pending() / this.#o.flushMaxEntries);
    while (rounds-- > 0 && pending() > 0) {
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

  /** Removes up to `max` entries from pending: counters first, then logs. */
  #take(max: number): UsageBatch {
    const { batch, room } = this.#counters.take(max);
    if (room > 0) batch.logs = this.#logs.splice(0, room);
    // Visitors travel beside the counters, up to `max` of their own per batch.
    if (this.#visitors.size > 0) batch.visitors = this.#visitors.take(max);
    if (this.#paths.size > 0) batch.paths = this.#paths.take(max);
    return batch;
  }

  /** Merges a failed batch back, adding to deltas that arrived meanwhile; bounded. */
  #putBack(batch: UsageBatch): void {
    this.#counters.putBack(batch);
    this.#visitors.putBack(batch.visitors ?? []);
    this.#paths.putBack(batch.paths ?? []);
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
        now,
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
      pendingBuckets: this.#counters.size,
      pendingLogs: this.#logs.length,
      prunes: c.prunes,
      lastPruneAt: iso(c.lastPruneAt),
      lastPruneRowsDeleted: c.lastPruneRowsDeleted,
      /** Not in SPEC's list: entries shed at the pending bound or discarded by the target. */
      droppedOnOverflow: c.droppedOnOverflow + this.#visitors.dropped + this.#paths.dropped,
    };
  }
}
