/**
 * Follows the KV change log (lib/kv/changes.ts) so a change made on any instance is
 * honoured here within a poll interval, not after the snapshot TTL: each announced
 * tenant or quota change drops what this instance memoised for it.
 *
 * `kv.watch()` does not notify across processes sharing a local KV file (checked on
 * Deno 2.9: a write in another process never reached a watcher), so on a local file
 * the feed polls the bell key (one small read) every `pollMs`. On remote KV (Deno
 * Deploy, KV Connect) where every read is a round trip, it watches the bell and polls
 * only slowly as a back-up. Whatever the feed misses, the snapshot TTL and
 * EDGE_SNAPSHOT_MAX_STALE_MS still bound (edge/snapshots.ts).
 */
import { type Change, CHANGE_ENTRY_TTL_MS, changeBell, changesSince } from "../lib/kv/changes.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import type { Logger } from "../lib/log.ts";
import { isUndecodable, noteUndecodable } from "../lib/kv/undecodable.ts";

/** Entries are listed from this long before the previous listing (commits land out of order). */
const LOOKBACK_MS = 3_000;

export type ChangeFeedOptions = {
  pollMs: number;
  /** Watch the bell (remote KV) instead of polling it every `pollMs`. */
  watch: boolean;
  onChange(change: Change): void;
  /** The feed lost track (entries expired unseen): forget everything memoised. */
  onGap(): void;
  log: Logger;
};

// Long: one closure owns the feed's state (the bell, the listing window, the seen ids, the
// running/again flags, the watch stream); sync, look and tick are its inner functions, each short,
// and stop() must reach all of it.
export function startChangeFeed(kv: Deno.Kv, o: ChangeFeedOptions): { stop(): void } {
  let stopped = false;
  let bell: string | null | undefined; // undefined: not read yet
  let listedFrom = Date.now(); // the start of the last successful listing
  const seen = new Map<string, number>(); // entry id -> its time, while inside the window
  let failing = false;

  const sync = async () => {
    const started = Date.now();
    if (started - listedFrom > CHANGE_ENTRY_TTL_MS / 2) o.onGap();
    let entries: Awaited<ReturnType<typeof changesSince>>;
    try {
      entries = await changesSince(kv, Math.min(listedFrom, started) - LOOKBACK_MS);
    } catch (e) {
      if (!isUndecodable(e)) throw e;
      // An entry a newer runtime wrote (lib/kv/undecodable.ts): which tenant changed is
      // unknown, so everything memoised is dropped, as after a gap.
      noteUndecodable(o.log, "change feed", kvKeys.changeLog());
      o.onGap();
      entries = [];
    }
    for (const e of entries) {
      if (seen.has(e.id)) continue;
      seen.set(e.id, e.at);
      o.onChange(e.change);
    }
    listedFrom = started;
    for (const [id, at] of seen) if (at < started - 2 * LOOKBACK_MS) seen.delete(id);
  };

  /** One look at the bell; lists the log when it moved. Never throws. */
  const look = async () => {
    try {
      const now = await changeBell(kv);
      if (bell === undefined) listedFrom = Date.now();
      else if (now !== bell) await sync();
      bell = now;
      if (failing) o.log.info("edge change feed recovered");
      failing = false;
    } catch (e) {
      if (!failing && !stopped) {
        o.log.warn("edge change feed: KV read failed, snapshots fall back to their TTL", {
          error: e instanceof Error ? e.message : String(e),
        });
      }
      failing = true;
    }
  };
  let running = false;
  let again = false; // a watch event arrived during a look: look once more after it
  const tick = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    do {
      again = false;
      await look();
    } while (again && !stopped);
    running = false;
  };

  const timer = setInterval(tick, o.watch ? Math.max(o.pollMs, 1_000) : o.pollMs);
  Deno.unrefTimer(timer);
  tick();

  let stream: ReadableStream<Deno.KvEntryMaybe<unknown>[]> | null = null;
  if (o.watch) {
    (async () => {
      while (!stopped) {
        try {
          stream = kv.watch([kvKeys.changeBell()]);
          for await (const _ of stream) await tick();
        } catch {
          // the interval keeps polling; watch again after a pause
        }
        if (!stopped) await new Promise((r) => setTimeout(r, 1_000));
      }
    })();
  }
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      stream?.cancel().catch(() => {});
    },
  };
}
