/**
 * KV against the database it was projected from. KV carries an
 * installation marker (`["edge","installation"]`: the database's installation id, written
 * when KV is first filled from it) and a high-water mark (`["edge","high_water"]`: the
 * highest generation ever written, an atomic max on every snapshot write). Generations come
 * from one database sequence (migration 0010), so at boot three cheap reads tell:
 *
 * - `empty`: no marker and no snapshot (new install, KV lost): project every tenant;
 * - `foreign`: the marker names another database (KV_PATH or DATABASE_URL pointed elsewhere);
 * - `restored`: the sequence is behind the high-water mark (the database was restored from an
 *   older dump): KV holds newer state than the database, at generations it would refuse;
 * - `unmarked`: snapshots but no marker (written before the marker existed);
 * - `current`.
 *
 * `reconcileKv` is the one pass that repairs all of them, run to completion: it moves the
 * sequence past the mark, re-projects every tenant KV lost, is behind or ahead on, or holds
 * from another installation (with a fresh generation, so the conditional write wins), writes
 * a tombstone for every slug KV serves that the database has no row for (ghost tenants), and
 * deletes host routes no snapshot lists. Then it writes the marker.
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { edgeChanges, tenants } from "../db/schema/mod.ts";
import { kvKeys } from "../kv/keys.ts";
import { kvRetry } from "../kv/retry.ts";
import { listHeads, type SnapshotHead } from "../kv/snapshot.ts";
import { isUndecodable, noteUndecodable } from "../kv/undecodable.ts";
import { NEXT_GENERATION } from "./changes.ts";
import { projectSlug } from "./projector.ts";

export type KvState = "current" | "empty" | "foreign" | "restored" | "unmarked";

/** Projections running at once during a pass. */
const CONCURRENCY = 8;

/** The database's generation sequence: the highest generation handed out. */
export async function sequenceValue(s: Services): Promise<number> {
  const [row] = await s.dbHandle.query<{ last_value: string | number }>(
    "SELECT last_value FROM edge_generation_seq",
  );
  return Number(row.last_value);
}

/** KV's high-water mark: the highest generation written to it (or known to be covered). */
export async function highWater(kv: Deno.Kv): Promise<number> {
  const v = (await kvRetry(() => kv.get<Deno.KvU64>(kvKeys.highWater()))).value;
  return v ? Number(v.value) : 0;
}

/**
 * Raises KV's high-water mark to `generation` after a pass compared every tenant with the
 * database read at that sequence: a generation handed out but never projected (a rolled-back
 * write) leaves the mark below the sequence, which would otherwise call for a pass each tick.
 */
export async function coverHighWater(kv: Deno.Kv, generation: number): Promise<void> {
  const n = BigInt(Math.max(0, Math.trunc(generation)));
  await kvRetry(() => kv.atomic().max(kvKeys.highWater(), n).commit());
}

/** What KV holds relative to this database: three reads (see the module comment). */
export async function kvState(s: Services, installation: string): Promise<KvState> {
  const marker = (await kvRetry(() => s.kv.get<{ id: string }>(kvKeys.installation()))).value;
  if (!marker) {
    try {
      for await (const _ of s.kv.list({ prefix: kvKeys.snapshotHeads() }, { limit: 1 })) {
        return "unmarked";
      }
    } catch (e) {
      if (!isUndecodable(e)) throw e;
      noteUndecodable(s.log, "kvState", kvKeys.snapshotHeads());
      return "unmarked"; // there is a head, written by a newer runtime
    }
    return "empty";
  }
  if (marker.id !== installation) return "foreign";
  return (await highWater(s.kv)) > await sequenceValue(s) ? "restored" : "current";
}

export type ReconcileReport = {
  state: KvState;
  tenants: number;
  projected: number;
  ghosts: number;
  routesDeleted: number;
  ms: number;
};

/** A fresh generation for a slug (a row for a ghost), above anything KV holds. */
async function bumpGeneration(s: Services, slug: string, tenantId: number): Promise<void> {
  await s.db.insert(edgeChanges).values({ slug, tenantId, generation: NEXT_GENERATION })
    .onConflictDoUpdate({
      target: edgeChanges.slug,
      set: { generation: NEXT_GENERATION, changedAt: sql`now()` },
    });
}

/**
 * One complete pass (module comment). `state` decides how much is rewritten: `foreign` and
 * `restored` (or `rewriteAll`, `deno task cli sync`) rewrite every snapshot KV holds;
 * otherwise only what is missing, behind, ahead, from another installation or a ghost.
 * Returns what it did.
 */
export async function reconcileKv(
  s: Services,
  installation: string,
  state: KvState,
  opts: { rewriteAll?: boolean } = {},
): Promise<ReconcileReport> {
  const started = performance.now();
  const all = opts.rewriteAll === true || state === "foreign" || state === "restored";
  const rows = await s.db.select({
    slug: edgeChanges.slug,
    generation: edgeChanges.generation,
    tenantId: tenants.id,
  }).from(edgeChanges).leftJoin(tenants, eq(tenants.slug, edgeChanges.slug));
  const inDb = new Map(rows.map((r) => [r.slug, r]));
  // A tenant without a generation row (should not happen) gets one.
  const unmarked = await s.db.select({ slug: tenants.slug, id: tenants.id }).from(tenants)
    .leftJoin(edgeChanges, eq(edgeChanges.slug, tenants.slug))
    .where(sql`${edgeChanges.slug} IS NULL`);
  const heads = await readHeads(s, [...inDb.keys()]);
  const jobs: { slug: string; bump: number | null }[] = [];
  let ghosts = 0;
  for (const t of unmarked) jobs.push({ slug: t.slug, bump: t.id });
  for (const [slug, head] of heads) {
    if (inDb.has(slug) || head.deleted) continue;
    ghosts++; // KV serves a slug this database never had: a tombstone above its generation
    jobs.push({ slug, bump: 0 });
  }
  for (const r of rows) {
    const head = heads.get(r.slug);
    if (!head) {
      if (r.tenantId !== null) jobs.push({ slug: r.slug, bump: null }); // KV lost it
      continue;
    }
    if (r.tenantId === null && head.deleted) continue; // gone from both
    const gen = head.gen ?? 0;
    const foreign = head.installation !== undefined && head.installation !== installation;
    if (all || foreign || gen > r.generation) jobs.push({ slug: r.slug, bump: r.tenantId ?? 0 });
    else if (gen < r.generation) jobs.push({ slug: r.slug, bump: null });
    else if ((r.tenantId === null) !== (head.deleted === true)) {
      jobs.push({ slug: r.slug, bump: r.tenantId ?? 0 });
    }
  }
  if (jobs.some((j) => j.bump !== null)) {
    // Every generation from here on is above anything KV holds, this pass's bumps included.
    let mark = await highWater(s.kv); // heads written without the mark count too
    for (const h of heads.values()) mark = Math.max(mark, h.gen ?? 0);
    mark = Math.trunc(mark);
    await s.dbHandle.query(
      `SELECT setval('edge_generation_seq', GREATEST((SELECT last_value FROM edge_generation_seq), ${mark}))`,
    );
  }
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job.bump !== null) await bumpGeneration(s, job.slug, job.bump);
      await projectSlug(s, job.slug);
    }
  }));
  const routesDeleted = await deleteStrayRoutes(s.kv, s.log);
  await kvRetry(() => s.kv.set(kvKeys.installation(), { id: installation }));
  return {
    state,
    tenants: rows.filter((r) => r.tenantId !== null).length + unmarked.length,
    projected: jobs.length,
    ghosts,
    routesDeleted,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Every head KV holds; when one does not decode on this runtime (lib/kv/undecodable.ts), the
 * heads of the database's slugs read one by one instead, which deletes the undecodable ones
 * (so they are projected again, as lost); a ghost among those is not seen this pass.
 */
async function readHeads(s: Services, slugs: string[]): Promise<Map<string, SnapshotHead>> {
  try {
    return await listHeads(s.kv);
  } catch (e) {
    if (!isUndecodable(e)) throw e;
    noteUndecodable(s.log, "reconcile", kvKeys.snapshotHeads());
  }
  const out = new Map<string, SnapshotHead>();
  for (let i = 0; i < slugs.length; i += 10) {
    const page = slugs.slice(i, i + 10);
    const got = await kvRetry(() =>
      s.kv.getMany<SnapshotHead[]>(page.map((slug) => kvKeys.snapshotHead(slug)))
    );
    got.forEach((g, j) => g.value && out.set(page[j], g.value));
  }
  return out;
}

/**
 * Deletes host routes whose tenant's snapshot does not list the host (ghost domains); not
 * this pass when a head or a route does not decode on this runtime (it cannot tell).
 */
async function deleteStrayRoutes(kv: Deno.Kv, log: Services["log"]): Promise<number> {
  try {
    return await deleteStrayRoutesOrThrow(kv);
  } catch (e) {
    if (!isUndecodable(e)) throw e;
    noteUndecodable(log, "deleteStrayRoutes", kvKeys.hostRoutes());
    return 0;
  }
}

async function deleteStrayRoutesOrThrow(kv: Deno.Kv): Promise<number> {
  const heads = await listHeads(kv);
  let deleted = 0;
  for await (const e of kv.list<string>({ prefix: kvKeys.hostRoutes() })) {
    const head: SnapshotHead | undefined = heads.get(e.value);
    if (
      head && !head.deleted && (head.domains === undefined || head.domains.includes(
        e.key[2] as string,
      ))
    ) continue;
    const r = await kvRetry(() => kv.atomic().check(e).delete(e.key).commit());
    if (r.ok) deleted++;
  }
  return deleted;
}

/**
 * At boot, before the edge serves: anything but `current` is repaired now, in full. Returns
 * the report (null when KV was current: the projector's background pass looks deeper).
 */
export async function reconcileAtBoot(
  s: Services,
  installation: string,
): Promise<ReconcileReport | null> {
  const state = await kvState(s, installation);
  if (state === "current") return null;
  const report = await reconcileKv(s, installation, state);
  s.log.info("edge: KV rebuilt from the database", report);
  return report;
}
