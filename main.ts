/**
 * Entry point: parse the environment, start the edge on KV and serve, then start the
 * database side behind it (cold start: tenant hosts answer before PostgreSQL or the
 * management app have loaded; docs/architecture.md "Start-up"). With no DATABASE_URL it runs
 * on embedded PGlite and a local KV file under DATA_DIR, generating ENCRYPTION_KEY there once.
 */
import { bootMark, traceFirstAnswer } from "./lib/boot_trace.ts"; // first: marks evaluation
import { type Config, ConfigError, loadCheckedConfig } from "./lib/config.ts";
import { type EdgePart, startEdge } from "./edge/boot.ts";
import { ensureEncryptionKey } from "./lib/secrets_bootstrap.ts";
import { exitOnSignals, interruptible } from "./lib/shutdown.ts";
import { keepRunningOnDatabaseErrors } from "./lib/db/outage_guard.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import { capPendingPerClient } from "./lib/http/client_cap.ts";
import { type Handler, routeByHost } from "./lib/http/host_router.ts";
import { ControlGate, edgeAfterControl, notStartedYet } from "./lib/control_gate.ts";
import { probeAnswer, type ReadinessParts } from "./lib/http/probes.ts";
import { kvKeys } from "./lib/kv/keys.ts";
import { tuneNativeHeap } from "./lib/native_heap.ts";

/**
 * When the control half starts without a request asking for it: its modules' evaluation
 * holds the thread for tens of milliseconds, so it waits for the request that woke the
 * instance (Deno Deploy starts one for a request) to be answered, or for this long.
 */
const CONTROL_START_DELAY_MS = 50;

/** `handler` that calls `then` once, after its first answer is on its way. */
function afterFirstAnswer(handler: Handler, then: () => void): Handler {
  let first = true;
  return (req, info) => {
    if (!first) return handler(req, info);
    first = false;
    const answer = handler(req, info);
    const next = () => void setTimeout(then, 0);
    Promise.resolve(answer).then(next, next);
    return answer;
  };
}

/**
 * The database side, loaded and started behind the edge (lib/bootstrap.ts), retried while
 * the database cannot be reached (requests that need it get 503 meanwhile). Its own failures
 * end the process: a schema that is not current, a bad setting.
 */
function controlHalf(config: Config, part: EdgePart, startLog: Logger): ControlGate {
  return new ControlGate(
    async () => {
      const { startControl } = await import("./lib/bootstrap.ts");
      const app = await startControl(config, part, {});
      bootMark("control");
      part.log.info("cachely ready", { ms: Math.round(performance.now()) });
      return app;
    },
    startLog,
    async (e) => {
      const { SchemaNotCurrentError } = await import("./lib/db/migrate_lock.ts");
      if (e instanceof SchemaNotCurrentError) console.error(e.message);
      else {
        part.log.error("start-up failed", {
          error: e instanceof Error ? e.stack ?? e.message : e,
        });
      }
      Deno.exit(1);
    },
  );
}

/** The sign-up page's address; the port the server got when PORT=0 asked for any. */
function signupUrl(publicUrl: string, port: number): string {
  const url = new URL("/signup", publicUrl);
  if (url.port === "0") url.port = String(port);
  return url.href;
}

/** Flush and close for shutdown: the whole program's once started, else the edge half's. */
function lifecycle(control: ControlGate, part: EdgePart) {
  return {
    flush: () => control.app?.flush() ?? part.usage.flush(),
    close: async () => {
      if (control.app) return await control.app.close();
      await part.close();
    },
  };
}

/** Exported for wrappers that run the server as is (tests/readme_test.ts). */
export async function main() {
  bootMark("main");
  let config;
  try {
    config = await ensureEncryptionKey(await loadCheckedConfig(Deno.env.toObject()));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  bootMark("config");
  tuneNativeHeap();
  const startLog = createLogger(config.logLevel);
  keepRunningOnDatabaseErrors(startLog);
  const part = await startEdge(config, { log: startLog });
  bootMark("edge");
  const log = part.log;
  const control = controlHalf(config, part, startLog);
  // A KV without the installation marker is reconciled from the database before the edge
  // serves from it; a marked one serves at once (what the last run left is current enough).
  const edge = part.kvInstallation === null ? edgeAfterControl(part.edge, control) : part.edge;
  const readiness = (): ReadinessParts => ({
    database: control.app ? () => control.app!.services.dbHandle.query("select 1") : null,
    kv: () => part.kv.get(kvKeys.installation()),
  });
  const handler = routeByHost(config, edge, async (req, clientIp) => {
    // Probes first: a liveness check never waits for the database side to start.
    const probe = probeAnswer(req, readiness);
    if (probe) return await probe;
    const app = control.app ?? await control.ready();
    return app ? await app.management(req, clientIp) : notStartedYet();
  });
  const capped = config.clientMaxPending > 0
    ? capPendingPerClient(handler, {
      limit: config.clientMaxPending,
      trusted: config.trustedProxies,
    })
    : handler;
  const gate = interruptible(afterFirstAnswer(capped, () => control.begin()));
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: ({ port }) => {
      bootMark("listen");
      setTimeout(() => control.begin(), CONTROL_START_DELAY_MS);
      log.info("cachely listening", {
        management: config.publicUrl,
        tenants: `http://<slug>.${config.proxyDomain}`,
        port,
        database: config.databaseUrl ? "postgres" : "pglite",
      });
      // One plain line a person reads: where to go next (the JSON line above is for machines).
      console.log(`Cachely is running: open ${signupUrl(config.publicUrl, port)}`);
    },
  }, traceFirstAnswer(gate.handler));

  // SIGINT (Deno Deploy, Ctrl-C) or SIGTERM: drain, answer what is left 503, flush, exit < 5 s.
  exitOnSignals({
    server,
    app: lifecycle(control, part),
    gate,
    deadlineMs: config.shutdownDeadlineMs,
    log,
  });
}

if (import.meta.main) await main();
