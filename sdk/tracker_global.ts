/**
 * Script-tag entry of the tracker (bundled to sdk/dist/cachely-tracker.js). Exposes
 * `window.CachelyTracker` and, when the script tag carries `data-cachely-tenant` and
 * `data-cachely-endpoint`, creates `window.cachely` with declarative tracking enabled
 * (and wraps `window.fetch` when `data-cachely-wrap-fetch` is present).
 */
import * as api from "./tracker.ts";

type ScriptLike = { getAttribute(name: string): string | null; hasAttribute(n: string): boolean };
const g = globalThis as unknown as {
  CachelyTracker?: typeof api;
  cachely?: api.Tracker;
  fetch: typeof fetch;
  document?: { currentScript?: ScriptLike | null };
};

g.CachelyTracker = api;
try {
  const script = g.document?.currentScript;
  const tenantSlug = script?.getAttribute("data-cachely-tenant");
  const endpoint = script?.getAttribute("data-cachely-endpoint");
  if (script && tenantSlug && endpoint && !g.cachely) {
    const t = api.createTracker({ tenantSlug, endpoint });
    g.cachely = t;
    t.enableDeclarativeTracking();
    if (script.hasAttribute("data-cachely-wrap-fetch")) g.fetch = t.wrapFetch(g.fetch.bind(g));
  }
} catch { /* a tracker must never break the page */ }
