/**
 * Tenant snapshots and custom-domain routes, read from KV and memoised in memory
 * for EDGE_SNAPSHOT_TTL_MS: a change made elsewhere is seen within that window
 * (plus one KV read), one made in this process at once (invalidate). Past the TTL
 * the old value is served while one reload runs, but never once it is older than
 * EDGE_SNAPSHOT_MAX_STALE_MS: then the request waits for KV, so an idle instance's
 * first request after a while never answers from an old snapshot.
 */
import { type EdgeSnapshot, readHostRoute, readSnapshot } from "../lib/kv/snapshot.ts";
import { type QuotaSnapshot, readQuotaSnapshot } from "../lib/kv/quota.ts";
import type { Clock } from "../lib/clock.ts";

/** `loadedAt`: when `value` was read from KV (the bound on its age is measured from it). */
type Entry<T> = {
  value: T;
  expires: number;
  loadedAt: number;
  pending?: Promise<T>;
  loaded: boolean;
};

export class SnapshotCache {
  private snaps = new Map<string, Entry<EdgeSnapshot | null>>();
  private hosts = new Map<string, Entry<string | null>>();
  private quotas = new Map<string, Entry<QuotaSnapshot | null>>();

  constructor(
    private kv: Deno.Kv,
    private clock: Clock,
    private ttlMs: number,
    private maxStaleMs = Number.POSITIVE_INFINITY,
  ) {}

  get(slug: string): Promise<EdgeSnapshot | null> | EdgeSnapshot | null {
    return this.memo(this.snaps, slug, async () => {
      // null can also mean the read raced with a rewrite (chunks replaced under it): once more
      return await readSnapshot(this.kv, slug) ?? await readSnapshot(this.kv, slug);
    });
  }

  domain(hostname: string): Promise<string | null> | string | null {
    return this.memo(this.hosts, hostname, () => readHostRoute(this.kv, hostname));
  }

  /** An account's quota snapshot, memoised like tenant snapshots (one KV read per TTL). */
  quota(userId: string): Promise<QuotaSnapshot | null> | QuotaSnapshot | null {
    return this.memo(this.quotas, userId, () => readQuotaSnapshot(this.kv, userId));
  }

  invalidateQuota(userId: string): void {
    this.generation++;
    this.quotas.delete(userId);
  }

  /** Bumped by invalidate: a load started before it must not store what it read. */
  private generation = 0;

  invalidate(slug: string): void {
    this.generation++;
    this.snaps.delete(slug);
    this.hosts.clear();
  }

  /**
   * Returns the memoised value synchronously when fresh. When it has expired the
   * old value is still returned at once while one reload runs in the background
   * (stale-while-revalidate), so no visitor waits on KV after the first load; the
   * change is seen one KV read after the TTL. A first load (or one after
   * invalidate) is awaited, and concurrent first loads share one read.
   */
  private memo<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> | T {
    const now = this.clock.now();
    const e = map.get(key);
    if (e && e.expires > now) return e.value;
    // Stale-while-revalidate only inside the bound.
    const usable = e !== undefined && e.loaded && now - e.loadedAt <= this.maxStaleMs;
    if (e?.pending) return usable ? e.value : e.pending;
    const gen = this.generation;
    const pending = load().then((value) => {
      if (gen !== this.generation) return value;
      const at = this.clock.now();
      map.set(key, { value, expires: at + this.ttlMs, loadedAt: at, loaded: true });
      if (map.size > 10_000) map.delete(map.keys().next().value!);
      return value;
    }, (err) => {
      if (
        e?.loaded && gen === this.generation && this.clock.now() - e.loadedAt <= this.maxStaleMs
      ) {
        // keep serving the last good value within the bound; try again on a later request
        map.set(key, { value: e.value, expires: 0, loadedAt: e.loadedAt, loaded: true });
        return e.value;
      }
      map.delete(key);
      throw err;
    });
    // A reload nobody awaits (the stale value was served) must not become an unhandled
    // rejection: a caller that awaits `pending` still sees the error.
    pending.catch(() => {});
    map.set(key, {
      value: e?.value as T,
      expires: 0,
      loadedAt: e?.loadedAt ?? 0,
      pending,
      loaded: e?.loaded ?? false,
    });
    return usable ? e.value : pending;
  }
}
