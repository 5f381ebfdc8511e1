/**
 * How long KV takes to come back after a wipe: one instance (the real
 * bootstrap) on PostgreSQL with N tenants (one created through the API, the rest copied
 * from it in SQL with their generation rows and memberships), KV emptied, then the full
 * reconcile pass an instance runs at boot or at the next projector tick after it reads
 * that the marker is gone. Prints tenants, projections and milliseconds.
 *
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A
 * bench/reconcile_time.ts [tenants=1000]`
 */
import { createTenant, createTestApp, signUp } from "../tests/harness.ts";
import { installationId } from "../lib/edge_config/installation.ts";
import { kvState, reconcileKv } from "../lib/edge_config/reconcile.ts";

const url = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
if (!url) throw new Error("set BENCH_DATABASE_URL (PostgreSQL)");
Deno.env.set("TEST_DATABASE_URL", url);
const n = Number(Deno.args[0] ?? 1000);

const app = await createTestApp("postgres", { env: { EDGE_PROJECTOR_INTERVAL_MS: "600000" } });
try {
  const owner = await signUp(app);
  const template = await createTenant(owner);
  const q = (sql: string) => app.services.dbHandle.query(sql);
  const cols = (await q(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'tenants'
     AND column_name NOT IN ('id', 'slug') ORDER BY ordinal_position`,
  ) as { column_name: string }[]).map((c) => `"${c.column_name}"`).join(", ");
  await q(`INSERT INTO tenants (slug, ${cols}) SELECT 'bench-' || g, ${cols} FROM tenants,
    generate_series(2, ${n}) g WHERE slug = '${template}'`);
  await q(`INSERT INTO tenant_members (tenant_id, user_id, role) SELECT t.id, m.user_id, m.role
    FROM tenants t, tenant_members m JOIN tenants s ON s.id = m.tenant_id AND s.slug = '${template}'
    WHERE t.slug LIKE 'bench-%' ON CONFLICT DO NOTHING`);
  await q(`INSERT INTO edge_changes (slug, tenant_id, generation) SELECT slug, id,
    nextval('edge_generation_seq') FROM tenants WHERE slug LIKE 'bench-%' ON CONFLICT DO NOTHING`);
  const id = await installationId(app.services.dbHandle);
  const kv = app.services.kv;
  await reconcileKv(app.services, id, "current"); // every tenant in KV once
  for await (const e of kv.list({ prefix: [] })) await kv.delete(e.key); // the wipe
  const state = await kvState(app.services, id);
  const report = await reconcileKv(app.services, id, state);
  console.log(
    JSON.stringify({ ...report, load: (await Deno.readTextFile("/proc/loadavg")).split(" ")[0] }),
  );
} finally {
  await app.close();
}
