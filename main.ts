/**
 * Entry point: parse the environment, open the database and KV, serve.
 * With no DATABASE_URL it runs on embedded PGlite and a local KV file under
 * DATA_DIR, generating ENCRYPTION_KEY there once.
 */
import { bootMark, traceFirstAnswer } from "./lib/boot_trace.ts"; // first: marks evaluation
import { ConfigError, loadCheckedConfig } from "./lib/config.ts";
import { bootstrap } from "./lib/bootstrap.ts";
import { ensureEncryptionKey } from "./lib/secrets_bootstrap.ts";
import { SchemaNotCurrentError } from "./lib/db/migrate_lock.ts";
import { exitOnSignals, interruptible } from "./lib/shutdown.ts";
import { keepRunningOnDatabaseErrors, startWhenDatabaseAnswers } from "./lib/db/outage_guard.ts";
import { createLogger } from "./lib/log.ts";
import { capPendingPerClient } from "./lib/http/client_cap.ts";

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
  const startLog = createLogger(config.logLevel);
  keepRunningOnDatabaseErrors(startLog);
  let app;
  try {
    app = await startWhenDatabaseAnswers(() => bootstrap(config, { log: startLog }), startLog);
  } catch (e) {
    if (e instanceof SchemaNotCurrentError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  bootMark("bootstrap");
  const log = app.services.log;
  const capped = config.clientMaxPending > 0
    ? capPendingPerClient(app.handler, {
      limit: config.clientMaxPending,
      trusted: config.trustedProxies,
    })
    : app.handler;
  const gate = interruptible(capped);
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: ({ port }) => {
      bootMark("listen");
      log.info("cachely listening", {
        management: config.publicUrl,
        tenants: `http://<slug>.${config.proxyDomain}`,
        port,
        database: config.databaseUrl ? "postgres" : "pglite",
      });
    },
  }, traceFirstAnswer(gate.handler));

  // SIGINT (Deno Deploy, Ctrl-C) or SIGTERM: drain, answer what is left 503, flush, exit < 5 s.
  exitOnSignals({ server, app, gate, deadlineMs: config.shutdownDeadlineMs, log });
}

if (import.meta.main) await main();
