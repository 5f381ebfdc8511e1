/**
 * A tenant's HTTP caching settings (docs/decisions.md "HTTP caching") as stored in
 * tenants.settings, with their defaults. Type imports only: the edge (edge/caching.ts) and the
 * snapshot builder share the defaults.
 */
import type { EdgeCachingSettings } from "../kv/snapshot.ts";

/** Stale-while-revalidate window of a tenant that never set one: 60 s. */
export const DEFAULT_SWR_SECONDS = 60;

/**
 * The settings with defaults: fixed TTLs, a 60 s window (in origin mode only where the origin
 * allows stale answers), answers with cookies not stored.
 */
export function cachingOf(settings: Record<string, unknown>): EdgeCachingSettings {
  const locales = localesOf(settings);
  return {
    cacheMode: settings.cacheMode === "origin" ? "origin" : "fixed",
    staleWhileRevalidate: typeof settings.staleWhileRevalidate === "number"
      ? settings.staleWhileRevalidate
      : DEFAULT_SWR_SECONDS,
    ignoreSetCookie: settings.ignoreSetCookie === true,
    staleWhenOriginSilent: settings.staleWhenOriginSilent === true,
    ...(locales.length ? { locales } : {}),
  };
}

/** The website locales (lib/base/locales.ts); [] when none are set. */
export function localesOf(settings: Record<string, unknown>): string[] {
  return Array.isArray(settings.locales) ? settings.locales as string[] : [];
}
