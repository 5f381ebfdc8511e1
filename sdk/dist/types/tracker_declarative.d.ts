/**
 * Declarative tracking (SPEC "Client tracker contract"): clicks on `[data-cachely-track]`
 * are tracked through one delegated, passive, capturing listener per root. The handler
 * never awaits and never prevents the default action, so navigation is not delayed.
 */
/** Declarative tracking attributes (SPEC: `data-service-*`). */
export declare const TRACK_ATTR = "data-cachely-track";
export declare const EXPERIMENT_ATTR = "data-cachely-experiment-id";
export declare const META_ATTR_PREFIX = "data-cachely-meta-";
/** What a listener root must offer (`document` in browsers). */
export type Root = {
    addEventListener(type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions): void;
    removeEventListener(type: string, fn: (e: Event) => void, opts?: EventListenerOptions): void;
};
/** The part of a tracker the listener calls. */
type Trackable = {
    track(name: string, meta?: Record<string, unknown> | null, options?: {
        experimentId?: number | string;
    }): Promise<unknown>;
};
/**
 * Attaches the listener to `root` once; a later call (from any tracker) only changes
 * which tracker it reports to. Returns a function that removes it.
 */
export declare function enableDeclarativeTracking(tracker: Trackable, root: Root | undefined): () => void;
export {};
