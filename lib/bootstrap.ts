/**
 * Builds the whole program from a Config: database, KV, services, edge, handler.
 * main.ts and the test harness both start here, so tests run the real wiring.
 */
import type { Config } from "./config.ts";
import { type DbHandle, openDb } from "./db/client.ts";
import { prepareSchema } from "./db/migrate_lock.ts";
import { createServices, type Services } from "./services.ts";
import { type Clock, systemClock } from "./clock.ts";
import { createLogger, type Logger, LogRing, withLogRing } from "./log.ts";
import { createEdge } from "../edge/mod.ts";
import type { Edge } from "../edge/types.ts";
import { createUsageAggregator } from "./usage/mod.ts";
import { createHandler, type Handler } from "../app.ts";
import { aiEngineFor, createTransformRunner } from "./ai/engine.ts";
import { projectSlug } from "./edge_config/projector.ts";
import { startProjector } from "./edge_config/loop.ts";
import { installationId } from "./edge_config/installation.ts";
import { reconcileAtBoot } from "./edge_config/reconcile.ts";
import { startGuardrailLoop } from "./experiments/guardrail_loop.ts";
import { quotaThresholdCheck } from "./billing/quota_check.ts";
import { startOverageReporter } from "./billing/overage.ts";
import { upstreamClient, userUrlClient } from "../edge/upstream_client.ts";
import { startChangeFeed } from "../edge/change_feed.ts";
import { openFollowedKv } from "./kv/follow_file.ts";
import { decodableKv } from "./kv/undecodable.ts";
import { bootMark } from "./boot_trace.ts";

export type App = {
  services: Services;
  edge: Edge;
  handler: Handler;
  /** Writes pending usage and queued AI runs now (shutdown starts with this). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

export type BootstrapOptions = {
  dbHandle?: DbHandle;
  kv?: Deno.Kv;
  clock?: Clock;
  log?: Logger;
  fetch?: typeof fetch;
  resolveDns?: typeof Deno.resolveDns;
};

/** Opens the database and brings its schema up to date (or refuses: MIGRATE_ON_START=false). */
async function openMigratedDb(config: Config): Promise<DbHandle> {
  const db = await openDb(
    config.databaseUrl
      ? { url: config.databaseUrl, requestTimeoutMs: config.dbRequestTimeoutMs }
      : { dataDir: `${config.dataDir}/pg` },
    false,
  );
  bootMark("db open");
  try {
    await prepareSchema(config, db);
    bootMark("db schema");
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  return db;
}

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

/**
 * Changes made by other instances reach this one through the KV change log; in-memory KV
 * has no other instances (this process's own changes invalidate through the listeners).
 */
function followChanges(config: Config, services: Services, edge: Edge) {
  if (config.kvPath === ":memory:") return null;
  return startChangeFeed(services.kv, {
    pollMs: config.edgeChangePollMs,
    watch: config.denoDeploy || /^https?:\/\//.test(config.kvPath ?? ""),
    onChange: (c) => c.kind === "tenant" ? edge.invalidate(c.id) : edge.invalidateQuota(c.id),
    onGap: () => edge.invalidateAll(),
    log: services.log,
  });
}

// Long: the composition root in start order: database and KV opened together, services, usage
// aggregator, edge, reconcile, the background loops, then close() undoing them in reverse; each
// step takes the objects of the ones before, and seeing the whole wiring in one place is the point
// (docs/architecture.md).
export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<App> {
  let kvReopened = () => {};
  const startLog = opts.log ?? createLogger(config.logLevel);
  // The database (connect, schema check, installation id) and KV open at once (cold start).
  const [db, opened] = await Promise.allSettled([
    opts.dbHandle ? Promise.resolve(opts.dbHandle) : openMigratedDb(config).then((db) => {
      installationId(db).catch(() => {}); // read now; awaited below
      return db;
    }),
    opts.kv ? Promise.resolve(opts.kv) : openKv(config, startLog, () => kvReopened()).then((kv) => {
      bootMark("kv");
      return kv;
    }),
  ]);
  if (db.status === "rejected" || opened.status === "rejected") {
    if (db.status === "fulfilled" && !opts.dbHandle) await db.value.close().catch(() => {});
    if (opened.status === "fulfilled" && !opts.kv) opened.value.close();
    throw db.status === "rejected" ? db.reason : (opened as PromiseRejectedResult).reason;
  }
  bootMark("db+kv");
  const dbHandle = db.value;
  // A value a newer Deno wrote reads as missing, never as a crash (lib/kv/undecodable.ts).
  const kv = decodableKv(opened.value, startLog);
  const clock = opts.clock ?? systemClock;
  const logRing = new LogRing(); // recent entries for GET /api/admin/logs
  const services = createServices({
    config,
    dbHandle,
    kv,
    clock,
    log: withLogRing(
      opts.log ?? createLogger(config.logLevel),
      logRing,
      config.logLevel,
      () => clock.now(),
    ),
    logRing,
    fetch: opts.fetch,
    resolveDns: opts.resolveDns,
    userUrlClient: userUrlClient(config, opts.fetch),
  });
  const installation = installationId(dbHandle);
  const usage = createUsageAggregator(services);
  services.usageAggregator = usage;
  if (config.quotas) usage.setThresholdCheck(quotaThresholdCheck(services));
  usage.start();
  const stopOverage = startOverageReporter(services);
  const edge = createEdge({
    config,
    kv,
    clock: services.clock,
    log: services.log,
    upstream: upstreamClient(config, opts.fetch),
    resolveDns: services.resolveDns,
    usage,
    transform: createTransformRunner(services),
    // OTEL_DENO=true: the OpenTelemetry API is loaded, only then (docs/operations.md "Traces")
    tracing: config.tracing ? (await import("../edge/telemetry.ts")).createTracing() : null,
  }, { installationId: await installation });
  services.edgeCacheStats = () => ({
    entries: edge.cache.lru.count,
    bytes: edge.cache.lru.bytes,
    evictions: edge.cache.lru.evictions,
    snapshotAgeSeconds: edge.snapshots.snapshotAgeSeconds(),
    kvReadErrors: edge.snapshots.loadErrors,
  });
  services.snapshotListeners.add((slug) => edge.invalidate(slug));
  services.edgeProjection = { project: (slug) => projectSlug(services, slug) };
  // KV empty, foreign or ahead of a restored database: rebuilt before the edge serves.
  await reconcileAtBoot(services, await installation);
  bootMark("reconcile");
  const projector = startProjector(services, config.edgeProjectorIntervalMs);
  services.projectorStatus = projector.status;
  const guardrails = startGuardrailLoop(services, config.guardrailCheckIntervalMs);
  services.quotaListeners.add((userId) => edge.invalidateQuota(userId));
  const feed = followChanges(config, services, edge);
  // A new KV file: nothing memoised from the old one holds; the projector's next tick
  // finds the file unmarked (or another instance's) and reconciles it.
  kvReopened = () => edge.invalidateAll();
  const handler = createHandler(services, edge);
  return {
    services,
    edge,
    handler,
    async flush() {
      await Promise.all([usage.flush(), aiEngineFor(services).flush()]);
    },
    async close() {
      stopOverage();
      feed?.stop();
      await projector.stop();
      await guardrails.stop();
      await usage.stop(); // flush pending usage before the database goes away
      await aiEngineFor(services).flush(); // queued AI transform runs and outputs, likewise
      await services.background.idle(); // mails started by requests
      edge.close();
      services.userUrlClient.close();
      kv.close();
      await dbHandle.close();
    },
  };
}
