/**
 * A tenant's HTTP caching settings (issue 25; docs/decisions.md "HTTP caching") as stored in
 * tenants.settings, with their defaults. Type imports only: the edge (edge/caching.ts) and the
 * snapshot builder share the defaults.
 */
import type { EdgeCachingSettings } from "../kv/snapshot.ts";

/** Stale-while-revalidate window of a tenant that never set one: 60 s. */
export const DEFAULT_SWR_SECONDS = 60;

/** The settings with defaults: fixed TTLs, a 60 s window, answers with cookies not stored. */
export function cachingOf(settings: Record<string, unknown>): EdgeCachingSettings {
  return {
    cacheMode: settings.cacheMode === "origin" ? "origin" : "fixed",
    staleWhileRevalidate: typeof settings.staleWhileRevalidate === "number"
      ? settings.staleWhileRevalidate
      : DEFAULT_SWR_SECONDS,
    ignoreSetCookie: settings.ignoreSetCookie === true,
  };
}
