/**
 * A KV handle on a local file that follows its path: when the file is
 * deleted or replaced under a running instance (another inode at the path), the handle
 * reopens the path, so this instance works on the same file as the instances started
 * since, instead of splitting from them on the old one. SQLite keeps a deleted file
 * readable through open handles, which is how instances used to split silently.
 * `onReopen` runs after each switch (drop what was memoised from the old file); the old
 * handle is closed a few seconds later, once operations on it have finished.
 */
import type { Logger } from "../log.ts";

export type FollowedKv = { kv: Deno.Kv; stop(): void };

async function inode(path: string): Promise<number | null> {
  try {
    return (await Deno.stat(path)).ino;
  } catch {
    return null;
  }
}

export async function openFollowedKv(
  path: string,
  o: { log: Logger; onReopen(): void; checkMs?: number },
): Promise<FollowedKv> {
  let current = await Deno.openKv(path);
  let ino = await inode(path);
  let checking = false;
  // Replaced handles still closing, so close() can end them at once instead of leaving a timer.
  const retiring = new Map<Deno.Kv, ReturnType<typeof setTimeout>>();
  const retire = (old: Deno.Kv) => {
    const later = setTimeout(() => (retiring.delete(old), old.close()), 5_000);
    Deno.unrefTimer(later);
    retiring.set(old, later);
  };
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      const now = await inode(path);
      if (now !== null && now === ino) return;
      o.log.error("KV file was deleted or replaced under this instance: reopening its path", {
        path,
      });
      const old = current;
      current = await Deno.openKv(path); // creates it when missing: the reconcile pass fills it
      ino = await inode(path);
      o.onReopen();
      retire(old);
    } catch (e) {
      o.log.warn("KV file check failed", { error: e instanceof Error ? e.message : String(e) });
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(check, o.checkMs ?? 1_000);
  Deno.unrefTimer(timer);
  const stop = () => {
    clearInterval(timer);
    for (const [old, later] of retiring) {
      clearTimeout(later);
      old.close();
    }
    retiring.clear();
  };
  const kv = new Proxy(current, {
    get(_target, prop) {
      if (prop === "close") return () => (stop(), current.close());
      const v = Reflect.get(current, prop);
      return typeof v === "function" ? v.bind(current) : v;
    },
  });
  return { kv, stop };
}
