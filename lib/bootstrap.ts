/**
 * The control half of start-up and the whole program: `startControl` takes a started edge
 * (edge/boot.ts) and adds the database, services, background loops, the instance's running
 * parts (lib/instance.ts) and the management app;
 * `bootstrap` runs both halves (tests, the CLI, benches), so tests run the real wiring.
 * main.ts serves the edge first and runs `startControl` behind it (docs/architecture.md).
 */
import type { Config } from "./config.ts";
import { type DbHandle, openDb } from "./db/client.ts";
import { prepareSchema } from "./db/migrate_lock.ts";
import { createServices, type Services } from "./services.ts";
import type { Instance } from "./instance.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import { shutdownSteps } from "./shutdown_steps.ts";
import type { Edge } from "../edge/types.ts";
import { managementHandler } from "../app.ts";
import { type Handler, routeByHost } from "./http/host_router.ts";
import { aiEngineFor, createTransformRunner } from "./ai/engine.ts";
import { projectSlug } from "./edge_config/projector.ts";
import { startProjector } from "./edge_config/loop.ts";
import { installationId } from "./edge_config/installation.ts";
import { reconcileAtBoot } from "./edge_config/reconcile.ts";
import { startGuardrailLoop } from "./experiments/guardrail_loop.ts";
import { quotaThresholdCheck } from "./billing/quota_check.ts";
import { startOverageReporter } from "./billing/overage.ts";
import { postgresFlushTarget } from "./usage/pg_target.ts";
import { userUrlClient } from "../edge/upstream_client.ts";
import { type EdgePart, startEdge } from "../edge/boot.ts";
import { bootMark } from "./boot_trace.ts";

export type App = {
  services: Services;
  /** This process's running edge and loops (lib/instance.ts), beside Services. */
  instance: Instance;
  edge: Edge;
  handler: Handler;
  /** Hosts that are not the edge's (API, dashboard): what `handler` sends there. */
  management: (req: Request, clientIp: string) => Promise<Response>;
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
async function openMigratedDb(config: Config, log?: Logger): Promise<DbHandle> {
  const db = await openDb(
    config.databaseUrl
      ? { url: config.databaseUrl, requestTimeoutMs: config.dbRequestTimeoutMs, log }
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

export type ControlOptions = {
  dbHandle?: DbHandle;
  fetch?: typeof fetch;
  resolveDns?: typeof Deno.resolveDns;
};

/**
 * The control half on a started edge: opens the database unless given one (closed again
 * when this fails), then wires the rest. Failing because the database cannot be reached,
 * it can be run again (main.ts retries it).
 */
export async function startControl(
  config: Config,
  part: EdgePart,
  opts: ControlOptions = {},
): Promise<App> {
  const dbHandle = opts.dbHandle ?? await openMigratedDb(config, part.log);
  try {
    return await wireControl(config, part, dbHandle, opts);
  } catch (e) {
    if (!opts.dbHandle) await dbHandle.close().catch(() => {});
    throw e;
  }
}

// Long: the composition root of the control half in start order: database, services, usage's
// database side, reconcile, the background loops, then close() undoing them in reverse; each
// step takes the objects of the ones before, and seeing the whole wiring in one place is the
// point (docs/architecture.md).
async function wireControl(
  config: Config,
  part: EdgePart,
  dbHandle: DbHandle,
  opts: ControlOptions,
): Promise<App> {
  const { kv, edge, usage, log } = part;
  const services = createServices({
    config,
    dbHandle,
    kv,
    clock: part.clock,
    log,
    logRing: part.logRing,
    fetch: opts.fetch,
    resolveDns: opts.resolveDns,
    userUrlClient: userUrlClient(config, opts.fetch),
    project: projectSlug,
  });
  const installation = await installationId(dbHandle);
  services.snapshotListeners.add((slug) => edge.invalidate(slug));
  // KV empty, foreign or ahead of a restored database: rebuilt before the edge serves
  // tenants from it (main.ts holds edge requests until this when KV had no marker).
  await reconcileAtBoot(services, installation);
  if (part.kvInstallation !== null && part.kvInstallation !== installation) {
    edge.invalidateAll(); // KV was another database's: what the edge memoised from it is gone
  }
  bootMark("reconcile");
  if (config.quotas) usage.setThresholdCheck(quotaThresholdCheck(services));
  const stopOverage = startOverageReporter(services);
  part.bind({
    usageTarget: postgresFlushTarget(services.db),
    transform: createTransformRunner(services),
    installation,
  });
  const projector = startProjector(services, config.edgeProjectorIntervalMs);
  part.onKvReopen(() => projector.checkKvNow()); // an older copy restored: repaired at once
  const guardrails = startGuardrailLoop(services, config.guardrailCheckIntervalMs);
  services.quotaListeners.add((userId) => edge.invalidateQuota(userId));
  const instance: Instance = {
    requestCounters: part.requestCounters,
    edgeCacheStats: () => ({
      entries: edge.cache.lru.count,
      bytes: edge.cache.lru.bytes,
      evictions: edge.cache.lru.evictions,
      snapshotAgeSeconds: edge.snapshots.snapshotAgeSeconds(),
      kvReadErrors: edge.snapshots.loadErrors,
    }),
    edgeExplain: (target, url, method) => edge.explain(target, url, method),
    projectorStatus: projector.status,
    usageAggregator: usage,
  };
  const management = managementHandler(services, instance);
  return {
    services,
    instance,
    edge,
    handler: routeByHost(config, edge, management),
    management,
    async flush() {
      await dbHandle.renewIfSuspect?.(); // a stuck pool must not take the final flush with it
      await Promise.all([usage.flush(), aiEngineFor(services).flush()]);
    },
    async close() {
      // Each step has its own budget (lib/shutdown_steps.ts); the loops' timers stop at once
      // and their last tick is waited for only after the final flush.
      const steps = shutdownSteps(log);
      stopOverage();
      const loops = Promise.all([projector.stop(), guardrails.stop()]);
      loops.catch(() => {}); // awaited below, after the flush; a failure is logged there
      await steps.run("usage flush", () => usage.stop(), 1_500); // before the database goes
      await steps.run("ai flush", () => aiEngineFor(services).flush(), 500); // likewise
      await steps.run("loops", () => loops, 300);
      await steps.run("background", () => services.background.idle(), 300); // mails sent
      services.userUrlClient.close();
      await steps.run("edge close", () => part.close(), 500);
      await steps.run("database close", () => dbHandle.close(), 500);
      log.debug("closed", { stepsMs: steps.took }); // a step cut at its budget is a warning
    },
  };
}

/** Both halves, in the order main.ts runs them, with nothing served in between. */
export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<App> {
  // The database (connect, schema check) and the edge (KV) start at once.
  const [db, part] = await Promise.allSettled([
    opts.dbHandle ? Promise.resolve(opts.dbHandle) : openMigratedDb(config, opts.log),
    startEdge(config, opts),
  ]);
  if (db.status === "rejected" || part.status === "rejected") {
    if (db.status === "fulfilled" && !opts.dbHandle) await db.value.close().catch(() => {});
    if (part.status === "fulfilled") await part.value.close();
    throw db.status === "rejected" ? db.reason : (part as PromiseRejectedResult).reason;
  }
  bootMark("db+kv");
  try {
    return await startControl(config, part.value, { ...opts, dbHandle: db.value });
  } catch (e) {
    await part.value.close();
    if (!opts.dbHandle) await db.value.close().catch(() => {});
    throw e;
  }
}
