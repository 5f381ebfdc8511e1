/**
 * A KV backup and its restore, as an operator does them to the SQLite file under a running
 * fleet (tests/kv_restore_test.ts, bench/soak.ts).
 */
import { DatabaseSync } from "node:sqlite";

/** A consistent copy of a live SQLite file (what a KV backup is). */
export function backupKv(path: string, to: string) {
  const db = new DatabaseSync(path);
  try {
    db.exec(`VACUUM INTO '${to}'`);
  } finally {
    db.close();
  }
}

/** Puts `copy` back at `path` as a new file, the way a restore replaces it. */
export async function restoreKv(copy: string, path: string) {
  for (const f of ["-wal", "-shm"]) await Deno.remove(`${path}${f}`).catch(() => {});
  await Deno.rename(copy, path);
}
