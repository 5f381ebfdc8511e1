/**
 * Operator CLI. `deno task cli migrate` applies migrations to DATABASE_URL (the
 * separate deploy step); `deno task cli sync <slug>` rebuilds a tenant's edge snapshot.
 */
import { ConfigError, loadConfig } from "./lib/config.ts";
import { openDb } from "./lib/db/client.ts";
import { applyMigrations } from "./lib/db/migrate.ts";
import { bootstrap } from "./lib/bootstrap.ts";
import { ensureEncryptionKey } from "./lib/secrets_bootstrap.ts";
import { findTenantBySlug } from "./lib/tenants/service.ts";
import { syncTenantSnapshot } from "./lib/edge_config/sync.ts";

const USAGE = `usage: deno task cli <command>
  migrate        apply SQL migrations to DATABASE_URL (or the embedded database)
  sync <slug>    rebuild a tenant's edge snapshot in KV`;

async function run(args: string[]): Promise<number> {
  const config = await ensureEncryptionKey(loadConfig(Deno.env.toObject()));
  switch (args[0]) {
    case "migrate": {
      const db = await openDb(
        config.databaseUrl ? { url: config.databaseUrl } : { dataDir: `${config.dataDir}/pg` },
        false,
      );
      const applied = await applyMigrations(db);
      console.log(applied.length ? `applied: ${applied.join(", ")}` : "up to date");
      await db.close();
      return 0;
    }
    case "sync": {
      if (!args[1]) break;
      const app = await bootstrap(config);
      const t = await findTenantBySlug(app.services, args[1]);
      if (!t) {
        console.error(`unknown tenant: ${args[1]}`);
        await app.close();
        return 1;
      }
      const snap = await syncTenantSnapshot(app.services, t.id);
      console.log(`synced ${snap.slug} at ${snap.builtAt}`);
      await app.close();
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}

if (import.meta.main) {
  try {
    Deno.exit(await run(Deno.args));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
}
