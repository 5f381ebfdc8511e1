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

/** Where the memoised values come from: KV in production, a scripted fake in property tests. */
export type SnapshotSource = {
  snapshot(slug: string): Promise<EdgeSnapshot | null>;
  hostRoute(hostname: string): Promise<string | null>;
  quota(userId: string): Promise<QuotaSnapshot | null>;
};

export function kvSnapshotSource(kv: Deno.Kv): SnapshotSource {
  return {
    // null can also mean the read raced with a rewrite (chunks replaced under it): once more
    snapshot: async (slug) => await readSnapshot(kv, slug) ?? await readSnapshot(kv, slug),
    hostRoute: (hostname) => readHostRoute(kv, hostname),
    quota: (userId) => readQuotaSnapshot(kv, userId),
  };
}

/**
 * `loadedAt`: when the read of `value` started (its age is measured from there: the read
 * saw KV as of that moment or later). `pending`: the one reload running for this entry,
 * started at `startedAt`.
 */
type Entry<T> = {
  value: T;
  expires: number;
  loadedAt: number;
  pending?: Promise<T>;
  startedAt?: number;
  loaded: boolean;
};

/** Entries per map; the oldest inserted goes first past it. */
const MAX_ENTRIES = 10_000;

export class SnapshotCache {
  private snaps = new Map<string, Entry<EdgeSnapshot | null>>();
  private hosts = new Map<string, Entry<string | null>>();
  private quotas = new Map<string, Entry<QuotaSnapshot | null>>();
  /** KV reads that failed (GET /metrics: cachely_kv_errors_total{op="read"}). */
  loadErrors = 0;

  constructor(
    private source: SnapshotSource,
    private clock: Clock,
    private ttlMs: number,
    private maxStaleMs = Number.POSITIVE_INFINITY,
  ) {}

  get(slug: string): Promise<EdgeSnapshot | null> | EdgeSnapshot | null {
    return this.memo(this.snaps, slug, () => this.source.snapshot(slug));
  }

  domain(hostname: string): Promise<string | null> | string | null {
    return this.memo(this.hosts, hostname, () => this.source.hostRoute(hostname));
  }

  /** An account's quota snapshot, memoised like tenant snapshots (one KV read per TTL). */
  quota(userId: string): Promise<QuotaSnapshot | null> | QuotaSnapshot | null {
    return this.memo(this.quotas, userId, () => this.source.quota(userId));
  }

  invalidateQuota(userId: string): void {
    this.quotas.delete(userId);
  }

  /**
   * Seconds since the oldest tenant snapshot held was read from KV (0 when none): how far
   * behind KV this instance may serve a tenant's configuration (GET /metrics).
   */
  snapshotAgeSeconds(): number {
    const now = this.clock.now();
    let oldest = now;
    for (const e of this.snaps.values()) if (e.loaded && e.loadedAt < oldest) oldest = e.loadedAt;
    return (now - oldest) / 1000;
  }

  /** Every next read goes to KV. */
  clear(): void {
    this.snaps.clear();
    this.hosts.clear();
    this.quotas.clear();
  }

  /** The next read of the tenant (and of any custom domain) goes to KV. */
  invalidate(slug: string): void {
    this.snaps.delete(slug);
    this.hosts.clear();
  }

  /**
   * Returns the memoised value synchronously when fresh. When it has expired the
   * old value is still returned at once while one reload runs in the background
   * (stale-while-revalidate), so no visitor waits on KV after the first load; the
   * change is seen one KV read after the TTL. A first load (or one after
   * invalidate) is awaited, and concurrent first loads share one read.
   *
   * A reload stores its result only if its entry is still the one in the map: an
   * invalidate (which deletes the entry) during the read means the read may predate
   * the change, so it is dropped and the next request reads again. Nothing else
   * decides, so no interleaving of invalidations and reloads leaves an entry whose
   * reload never lands (a global counter did, and served it for hours).
   */
  private memo<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> | T {
    const now = this.clock.now();
    const e = map.get(key);
    if (e && e.expires > now) return e.value;
    // Stale-while-revalidate only inside the bound.
    const usable = e !== undefined && e.loaded && now - e.loadedAt <= this.maxStaleMs;
    // Join the running reload, unless it started too long ago to answer within the bound.
    if (e?.pending && now - e.startedAt! <= this.maxStaleMs) return usable ? e.value : e.pending;
    const entry: Entry<T> = {
      value: e?.value as T,
      expires: 0,
      loadedAt: e?.loadedAt ?? 0,
      loaded: e?.loaded ?? false,
    };
    const pending = load().then((value) => {
      if (map.get(key) === entry) {
        map.set(key, { value, expires: now + this.ttlMs, loadedAt: now, loaded: true });
      }
      return value;
    }, (err) => {
      this.loadErrors++;
      if (map.get(key) !== entry) throw err;
      if (entry.loaded && this.clock.now() - entry.loadedAt <= this.maxStaleMs) {
        // keep serving the last good value within the bound; try again on a later request
        map.set(key, { ...entry, pending: undefined, startedAt: undefined });
        return entry.value;
      }
      map.delete(key);
      throw err;
    });
    // A reload nobody awaits (the stale value was served) must not become an unhandled
    // rejection: a caller that awaits `pending` still sees the error.
    pending.catch(() => {});
    entry.pending = pending;
    entry.startedAt = now;
    map.delete(key); // re-inserted last: the size bound below drops the oldest first
    map.set(key, entry);
    if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
    return usable ? entry.value : pending;
  }
}
