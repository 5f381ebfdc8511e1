/**
 * Local operator commands: they open the database (DATABASE_URL, or the embedded one
 * under DATA_DIR) directly instead of calling an instance. Server modules are imported
 * only when one of these runs, so `--help` and the remote commands stay light and
 * never touch .data/.
 */
import { CliError } from "../args.ts";
import type { Command } from "../command.ts";

async function localConfig() {
  const { loadConfig } = await import("../../lib/config.ts");
  return loadConfig(Deno.env.toObject());
}

/** Opens the database without migrating it. */
async function openLocalDb() {
  const config = await localConfig();
  const { openDb } = await import("../../lib/db/client.ts");
  const db = await openDb(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: `${config.dataDir}/pg` },
    false,
  );
  return { config, db };
}

const DB_NOTE = `Runs on this machine against DATABASE_URL (or the embedded database under
DATA_DIR, which must not be open in a running server at the same time).`;

const migrate: Command = {
  path: ["migrate"],
  summary: "apply SQL migrations (under the advisory lock on PostgreSQL)",
  details: `Applies pending migrations to MIGRATION_DATABASE_URL, else DATABASE_URL (under a
PostgreSQL advisory lock, so concurrent runs apply each migration once), else the
embedded database under DATA_DIR (which must not be open in a running server).
The same step as \`deno task migrate\`.`,
  async run(ctx) {
    // lib/db/migrate_lock.ts owns how migrations run; this only calls it.
    const { runMigrations } = await import("../../lib/db/migrate_lock.ts");
    const applied = await runMigrations(await localConfig());
    ctx.print(
      { ok: true, applied },
      () => (applied.length ? `applied: ${applied.join(", ")}` : "up to date"),
    );
  },
};

const sync: Command = {
  path: ["sync"],
  args: "[slug]",
  summary: "rebuild edge snapshots in KV from the database (one tenant, or everything)",
  details: `With a slug: rebuilds that tenant's snapshot. Without: rewrites every tenant's
snapshot at a fresh generation, writes tombstones for tenants KV holds that the database
has no row for, deletes host routes no snapshot lists and marks KV as filled from this
database (after a restore, a KV loss or a KV copied from elsewhere). ${DB_NOTE}`,
  async run(ctx) {
    const { ensureEncryptionKey } = await import("../../lib/secrets_bootstrap.ts");
    const { bootstrap } = await import("../../lib/bootstrap.ts");
    const app = await bootstrap(await ensureEncryptionKey(await localConfig()));
    try {
      if (ctx.args[0] === undefined) {
        const { kvState, reconcileKv } = await import("../../lib/edge_config/reconcile.ts");
        const { installationId } = await import("../../lib/edge_config/installation.ts");
        const id = await installationId(app.services.dbHandle);
        const state = await kvState(app.services, id);
        const r = await reconcileKv(app.services, id, state, { rewriteAll: true });
        ctx.print(
          { ok: true, ...r },
          () =>
            `KV was ${r.state}: rewrote ${r.projected} snapshot(s) of ${r.tenants} tenant(s), ` +
            `${r.ghosts} ghost(s) removed, ${r.routesDeleted} stray host route(s) deleted ` +
            `in ${r.ms} ms`,
        );
        return;
      }
      const { findTenantBySlug } = await import("../../lib/tenants/service.ts");
      const { syncTenantSnapshot } = await import("../../lib/edge_config/sync.ts");
      const t = await findTenantBySlug(app.services, ctx.args[0]);
      if (!t) throw new CliError(`Unknown tenant: ${ctx.args[0]}`);
      const snap = await syncTenantSnapshot(app.services, t.id);
      ctx.print(
        { ok: true, slug: snap.slug, builtAt: snap.builtAt },
        () => `synced ${snap.slug} at ${snap.builtAt}`,
      );
    } finally {
      await app.close();
    }
  },
};

function grantCommand(action: "grant" | "revoke"): Command {
  const on = action === "grant";
  return {
    path: ["admin", action],
    args: "<email>",
    minArgs: 1,
    summary: on
      ? "make a registered user a master admin (local, direct database)"
      : "take the database master-admin grant away (ADMIN_EMAILS still applies)",
    details: DB_NOTE,
    async run(ctx) {
      const { db } = await openLocalDb();
      try {
        const { setMasterAdmin } = await import("../../lib/users/mod.ts");
        const { systemClock } = await import("../../lib/clock.ts");
        const found = await setMasterAdmin({ db: db.db, clock: systemClock }, ctx.args[0], on)
          .catch((e) => {
            if (/master_admin/.test(String(e?.message))) {
              throw new CliError("The database schema is not current: run `deno task cli migrate`");
            }
            throw e;
          });
        if (!found) throw new CliError(`No user with email ${ctx.args[0]}: sign up first`);
        ctx.print(
          { ok: true, email: ctx.args[0].trim().toLowerCase(), masterAdmin: on },
          () => `${ctx.args[0]} is ${on ? "now" : "no longer"} a master admin`,
        );
      } finally {
        await db.close();
      }
    },
  };
}

export const localCommands: Command[] = [
  migrate,
  sync,
  grantCommand("grant"),
  grantCommand("revoke"),
];
