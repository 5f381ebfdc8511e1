/**
 * Declarative tracking (SPEC "Client tracker contract"): clicks on `[data-cachely-track]`
 * are tracked through one delegated, passive, capturing listener per root. The handler
 * never awaits and never prevents the default action, so navigation is not delayed.
 */

/** Declarative tracking attributes (SPEC: `data-service-*`). */
export const TRACK_ATTR = "data-cachely-track";
export const EXPERIMENT_ATTR = "data-cachely-experiment-id";
export const META_ATTR_PREFIX = "data-cachely-meta-";

/** What a listener root must offer (`document` in browsers). */
export type Root = {
  addEventListener(type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions): void;
  removeEventListener(type: string, fn: (e: Event) => void, opts?: EventListenerOptions): void;
};

/** The part of a tracker the listener calls. */
type Trackable = {
  track(
    name: string,
    meta?: Record<string, unknown> | null,
    options?: { experimentId?: number | string },
  ): Promise<unknown>;
};

const LISTENER = Symbol.for("cachely.tracker.listener");
type Registration = { tracker: Trackable; handler: (e: Event) => void };

/**
 * Attaches the listener to `root` once; a later call (from any tracker) only changes
 * which tracker it reports to. Returns a function that removes it.
 */
export function enableDeclarativeTracking(tracker: Trackable, root: Root | undefined): () => void {
  const target = root ?? (globalThis as { document?: Root }).document;
  if (!target) return () => {};
  const host = target as Root & { [LISTENER]?: Registration };
  const existing = host[LISTENER];
  if (existing) {
    existing.tracker = tracker;
    return () => disable(host);
  }
  const reg: Registration = { tracker, handler: (e: Event) => onClick(reg.tracker, e) };
  host[LISTENER] = reg;
  target.addEventListener("click", reg.handler, { capture: true, passive: true });
  return () => disable(host);
}

/** The DOM surface declarative tracking reads (no DOM lib needed to type-check under Deno). */
type ElementLike = {
  getAttribute(name: string): string | null;
  attributes: ArrayLike<{ name: string; value: string }>;
};

function disable(host: Root & { [LISTENER]?: Registration }): void {
  const reg = host[LISTENER];
  if (!reg) return;
  host.removeEventListener("click", reg.handler, { capture: true });
  delete host[LISTENER];
}

/** Fire-and-forget: never awaits, never prevents the default action (navigation goes on). */
function onClick(tracker: Trackable, e: Event): void {
  try {
    const start = e.target as { closest?: (sel: string) => ElementLike | null } | null;
    const el = start?.closest?.(`[${TRACK_ATTR}]`);
    if (!el) return;
    const name = el.getAttribute(TRACK_ATTR) ?? "";
    const meta: Record<string, string> = {};
    for (const attr of Array.from(el.attributes)) {
      if (attr.name.startsWith(META_ATTR_PREFIX) && attr.name.length > META_ATTR_PREFIX.length) {
        meta[attr.name.slice(META_ATTR_PREFIX.length)] = attr.value;
      }
    }
    const experimentId = el.getAttribute(EXPERIMENT_ATTR);
    void tracker.track(
      name,
      Object.keys(meta).length ? meta : null,
      experimentId === null ? undefined : { experimentId },
    );
  } catch { /* never break the page's click */ }
}
