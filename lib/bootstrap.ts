/**
 * Builds the whole program from a Config: database, KV, services, edge, handler.
 * main.ts and the test harness both start here, so tests run the real wiring.
 */
import type { Config } from "./config.ts";
import { type DbHandle, openDb } from "./db/client.ts";
import { createServices, type Services } from "./services.ts";
import { type Clock, systemClock } from "./clock.ts";
import { createLogger, type Logger, LogRing, withLogRing } from "./log.ts";
import { createEdge } from "../edge/mod.ts";
import type { Edge } from "../edge/types.ts";
import { createUsageAggregator } from "./usage/mod.ts";
import { createHandler, type Handler } from "../app.ts";
import { aiEngineFor, createTransformRunner } from "./ai/engine.ts";
import { projectSlug, startProjector } from "./edge_config/projector.ts";
import { quotaThresholdCheck } from "./billing/quota_check.ts";
import { startOverageReporter } from "./billing/overage.ts";

export type App = {
  services: Services;
  edge: Edge;
  handler: Handler;
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

export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<App> {
  const dbHandle = opts.dbHandle ?? await openDb(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: `${config.dataDir}/pg` },
  );
  const kv = opts.kv ?? await Deno.openKv(config.kvPath ?? `${config.dataDir}/kv.sqlite3`);
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
  });
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
    fetch: services.fetch,
    resolveDns: services.resolveDns,
    usage,
    transform: createTransformRunner(services),
  });
  services.snapshotListeners.add((slug) => edge.invalidate(slug));
  services.edgeProjection = { project: (slug) => projectSlug(services, slug) };
  const projector = startProjector(services, config.edgeProjectorIntervalMs);
  services.quotaListeners.add((userId) => edge.invalidateQuota(userId));
  const handler = createHandler(services, edge);
  return {
    services,
    edge,
    handler,
    async close() {
      stopOverage();
      await projector.stop();
      await usage.stop(); // flush pending usage before the database goes away
      await aiEngineFor(services).runs.flush(); // queued AI transform runs, likewise
      kv.close();
      await dbHandle.close();
    },
  };
}
