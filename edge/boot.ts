/**
 * The edge half of start-up (cold start): KV, the edge, its usage aggregator and the
 * KV change feed; no PostgreSQL, nothing of the management app. main.ts serves tenant hosts as
 * soon as this is done and starts the control half (lib/bootstrap.ts `startControl`: database,
 * services, management app, background loops) behind it. `bootstrap()` (tests, the CLI) runs
 * both before anything is served.
 */
import type { Config } from "../lib/config.ts";
import { type Clock, systemClock } from "../lib/clock.ts";
import { createLogger, type Logger, LogRing, withLogRing } from "../lib/log.ts";
import { createEdge } from "./mod.ts";
import type { Edge, TransformRunner } from "./types.ts";
import type { EdgeCache } from "./cache/store.ts";
import type { SnapshotCache } from "./snapshots.ts";
import type { EdgeRequests } from "./requests.ts";
import { createUsageAggregator } from "../lib/usage/mod.ts";
import type { UsageAggregator } from "../lib/usage/aggregator.ts";
import { DeferredFlushTarget } from "../lib/usage/deferred_target.ts";
import type { UsageFlushTarget } from "../lib/usage/types.ts";
import type { RequestCounters } from "../lib/metrics/request_counters.ts";
import { upstreamClient } from "./upstream_client.ts";
import { startChangeFeed } from "./change_feed.ts";
import { openFollowedKv } from "../lib/kv/follow_file.ts";
import { portableKv } from "../lib/kv/portable.ts";
import { decodableKv } from "../lib/kv/undecodable.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { kvRetry } from "../lib/kv/retry.ts";
import { orAfter } from "../lib/timeout.ts";
import { redactRuntimeSpans } from "./span_redaction.ts";

export type EdgeBootOptions = {
  kv?: Deno.Kv;
  clock?: Clock;
  log?: Logger;
  fetch?: typeof fetch;
  resolveDns?: typeof Deno.resolveDns;
};

/** What the control half hands the edge once the database answers. */
export type ControlBinding = {
  usageTarget: UsageFlushTarget;
  transform: TransformRunner;
  /** The database's installation id. */
  installation: string;
};

export type EdgePart = {
  config: Config;
  kv: Deno.Kv;
  clock: Clock;
  /** The program's logger, keeping recent entries in `logRing` (GET /api/admin/logs). */
  log: Logger;
  logRing: LogRing;
  edge: Edge & { cache: EdgeCache; snapshots: SnapshotCache; explain: EdgeRequests["explain"] };
  usage: UsageAggregator;
  requestCounters: RequestCounters;
  /**
   * KV's installation marker when the edge started; null when KV is empty or unmarked, and
   * then KV has to be reconciled from the database before the edge serves (main.ts waits).
   */
  kvInstallation: string | null;
  /** Runs `listener` each time the KV file is reopened (replaced under this instance). */
  onKvReopen(listener: () => void): void;
  /** Connects the edge to the database side (once). */
  bind(control: ControlBinding): void;
  /** Stops the usage loop (flushing what it can), the change feed, the edge and KV. */
  close(): Promise<void>;
};

/**
 * Deno KV: on Deno Deploy the database assigned to the app (`Deno.openKv()`, nothing on
 * disk); else KV_PATH (a file, `:memory:` or a KV Connect URL) or a file under DATA_DIR,
 * which is created when missing. A local file is followed: replaced under this instance, it
 * is reopened (lib/kv/follow_file.ts) and `onReopen` runs.
 */
async function openKv(config: Config, log: Logger, onReopen: () => void): Promise<Deno.Kv> {
  if (config.denoDeploy) return await Deno.openKv();
  const path = config.kvPath ?? `${config.dataDir}/kv.sqlite3`;
  if (path === ":memory:" || /^https?:\/\//.test(path)) return await Deno.openKv(path);
  if (!config.kvPath) await Deno.mkdir(config.dataDir, { recursive: true });
  return (await openFollowedKv(path, { log, onReopen })).kv;
}

/** A transform runner that waits (bounded) for the real one: the database side builds it. */
function deferredTransform(ready: Promise<TransformRunner>, waitMs: number): TransformRunner {
  const notYet = () => {
    throw new Error("the database is not connected yet");
  };
  return { runtime: async (input) => (await orAfter(ready, waitMs, notYet)).runtime(input) };
}

/** How long a `?transform=` request waits for the database side at start before passing through. */
const TRANSFORM_WAIT_MS = 5_000;

export async function startEdge(config: Config, opts: EdgeBootOptions = {}): Promise<EdgePart> {
  // Before anything is served or fetched: no secret of a URL in the runtime's own spans.
  redactRuntimeSpans();
  const clock = opts.clock ?? systemClock;
  const logRing = new LogRing();
  const log = withLogRing(
    opts.log ?? createLogger(config.logLevel),
    logRing,
    config.logLevel,
    () => clock.now(),
  );
  let kvReopened = () => {};
  const opened = opts.kv ?? await openKv(config, log, () => kvReopened());
  // Values stored in a form every runtime reads (lib/kv/portable.ts); one a newer Deno wrote
  // before that form reads as missing, never as a crash (lib/kv/undecodable.ts).
  const kv = decodableKv(portableKv(opened), log);
  const marker = (await kvRetry(() => kv.get<{ id: string }>(kvKeys.installation()))).value;
  const target = new DeferredFlushTarget();
  const { usage, counters } = createUsageAggregator(config, clock, log, target);
  usage.start();
  let bindTransform!: (t: TransformRunner) => void;
  const transform = new Promise<TransformRunner>((r) => bindTransform = r);
  let bindInstallation!: (id: string) => void;
  const installation = marker?.id ??
    new Promise<string>((r) => bindInstallation = r);
  const edge = createEdge({
    config,
    kv,
    clock,
    log,
    upstream: upstreamClient(config, opts.fetch),
    resolveDns: opts.resolveDns ?? Deno.resolveDns,
    usage,
    transform: deferredTransform(transform, TRANSFORM_WAIT_MS),
    // OTEL_DENO=true: the OpenTelemetry API is loaded, only then (docs/operations.md "Traces")
    tracing: config.tracing ? (await import("./telemetry.ts")).createTracing() : null,
  }, { installationId: installation });
  // A new KV file: nothing memoised from the old one holds; the projector's next tick
  // finds the file unmarked (or another instance's) and reconciles it.
  const reopenListeners = new Set<() => void>();
  kvReopened = () => {
    edge.invalidateAll();
    for (const listener of reopenListeners) listener();
  };
  const feed = followChanges(config, kv, log, edge);
  return {
    config,
    kv,
    clock,
    log,
    logRing,
    edge,
    usage,
    requestCounters: counters,
    kvInstallation: marker?.id ?? null,
    onKvReopen: (listener) => reopenListeners.add(listener),
    bind(control) {
      target.bind(control.usageTarget);
      bindTransform(control.transform);
      if (!marker) bindInstallation(control.installation);
      else if (marker.id !== control.installation && config.kvPath !== ":memory:") {
        edge.cache.useSecondTier(`cachely-edge-${control.installation}`);
      }
    },
    async close() {
      await usage.stop();
      feed?.stop();
      edge.close();
      kv.close();
    },
  };
}

/**
 * Changes made by other instances reach this one through the KV change log; in-memory KV
 * has no other instances (this process's own changes invalidate through the listeners).
 */
function followChanges(config: Config, kv: Deno.Kv, log: Logger, edge: Edge) {
  if (config.kvPath === ":memory:") return null;
  return startChangeFeed(kv, {
    pollMs: config.edgeChangePollMs,
    watch: config.denoDeploy || /^https?:\/\//.test(config.kvPath ?? ""),
    onChange: (c) => c.kind === "tenant" ? edge.invalidate(c.id) : edge.invalidateQuota(c.id),
    onGap: () => edge.invalidateAll(),
    log,
  });
}
