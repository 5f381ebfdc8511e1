/**
 * The database's installation id (table `installation`, migration 0007): the edge's second
 * cache tier is named after it, and KV's marker and every snapshot carry it, so KV filled
 * from another database is told apart (lib/edge_config/reconcile.ts). Created when the row
 * is missing; read once per database handle.
 */
import type { DbHandle } from "../db/client.ts";

const known = new WeakMap<DbHandle, Promise<string>>();

export function installationId(db: DbHandle): Promise<string> {
  let id = known.get(db);
  if (!id) {
    id = readOrCreate(db);
    id.catch(() => known.delete(db));
    known.set(db, id);
  }
  return id;
}

async function readOrCreate(db: DbHandle): Promise<string> {
  const read = async () => (await db.query<{ id: string }>("SELECT id FROM installation"))[0]?.id;
  const id = await read();
  if (id) return id;
  await db.query(
    "INSERT INTO installation (id) VALUES (gen_random_uuid()::text) ON CONFLICT DO NOTHING",
  );
  return (await read())!;
}
