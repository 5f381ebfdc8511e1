/**
 * Entry point: parse the environment, open the database and KV, serve.
 * With no DATABASE_URL it runs on embedded PGlite and a local KV file under
 * DATA_DIR, generating ENCRYPTION_KEY there once.
 */
import { ConfigError, loadConfig } from "./lib/config.ts";
import { bootstrap } from "./lib/bootstrap.ts";
import { ensureEncryptionKey } from "./lib/secrets_bootstrap.ts";
import { SchemaNotCurrentError } from "./lib/db/migrate_lock.ts";

async function main() {
  let config;
  try {
    config = await ensureEncryptionKey(loadConfig(Deno.env.toObject()));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  let app;
  try {
    app = await bootstrap(config);
  } catch (e) {
    if (e instanceof SchemaNotCurrentError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  const log = app.services.log;
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: ({ port }) => {
      log.info("cachely listening", {
        management: config.publicUrl,
        tenants: `http://<slug>.${config.proxyDomain}`,
        port,
        database: config.databaseUrl ? "postgres" : "pglite",
      });
    },
  }, app.handler);

  // SIGINT (Deno Deploy, Ctrl-C) or SIGTERM: stop accepting, flush pending usage and queued AI
  // runs at once (not after draining: Deploy kills 5 s after SIGINT), let in-flight requests
  // finish until SHUTDOWN_DEADLINE_MS, flush what they recorded, and exit within 5 s always.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    const hardExit = setTimeout(() => Deno.exit(0), 4_900);
    log.info("shutting down", { deadlineMs: config.shutdownDeadlineMs });
    const drained = server.shutdown().catch(() => {});
    await app.flush().catch(() => {});
    const left = Math.max(0, config.shutdownDeadlineMs - (performance.now() - started));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([drained, new Promise((r) => timer = setTimeout(r, left))]);
    clearTimeout(timer);
    await app.close().catch(() => {});
    clearTimeout(hardExit);
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main();
