/**
 * Cachely experiment tracker for browsers (SPEC "Client tracker contract").
 *
 * It reads the four `x-cachely-*` experiment headers from responses of a tenant host,
 * keeps the latest assignment per experiment in memory and in session storage (key
 * `cachely.experiment`, shape `{ assignmentsById, latestExperimentId }`), and posts
 * conversion events to `POST /api/ai-experiments/events`. Nothing here throws into
 * the page: storage failures fall back to memory, and `track()` always resolves.
 *
 * No dependencies and no Deno APIs: these sources are the ES module and, bundled, the
 * script-tag build (sdk/dist/cachely-tracker.js). State helpers live in tracker_storage.ts,
 * the click listener in tracker_declarative.ts.
 */
import { type Assignment, type StorageLike } from "./tracker_storage.js";
import { type Root } from "./tracker_declarative.js";
export { type Assignment, parseStored, SESSION_KEY, STORAGE_KEY, type StorageLike, type StoredAssignments, VISITOR_KEY, } from "./tracker_storage.js";
export { EXPERIMENT_ATTR, META_ATTR_PREFIX, type Root, TRACK_ATTR } from "./tracker_declarative.js";
/** The experiment response headers the tracker reads (SPEC "Public proxy behaviour"). */
export declare const EXPERIMENT_HEADERS: {
    readonly experimentId: "x-cachely-experiment-id";
    readonly variantId: "x-cachely-variant-id";
    readonly variantKey: "x-cachely-variant-key";
    readonly profile: "x-cachely-experiment-profile";
};
/** The four resolution errors of SPEC, plus request outcomes. */
export type TrackError = "no_assignment" | "ambiguous_experiment" | "assignment_not_found" | "invalid_experiment_id" | "invalid_event_name" | "network_error" | "http_error";
export type TrackResult = {
    ok: boolean;
    id?: number;
    error?: TrackError;
    status?: number;
};
export type TrackOptions = {
    experimentId?: number | string;
};
export type TrackerOptions = {
    /** The tenant's slug, sent as tenantSlug. */
    tenantSlug: string;
    /** Full URL of the event endpoint, e.g. `https://app.example.com/api/ai-experiments/events`. */
    endpoint: string;
    /** Defaults to the global fetch. */
    fetch?: typeof fetch;
    /** Defaults to `sessionStorage`; null keeps everything in memory. */
    sessionStorage?: StorageLike | null;
    /** Defaults to `localStorage` (visitor id only); null keeps it in memory. */
    localStorage?: StorageLike | null;
    /** Page URL and referrer sent with events; default `location.href` and `document.referrer`. */
    pageUrl?: () => string | undefined;
    referrer?: () => string | undefined;
};
export type Tracker = {
    /** Reads the experiment headers of a response; returns the assignment captured, if any. */
    captureFromResponse(response: {
        headers: {
            get(name: string): string | null;
        };
    }): Assignment | null;
    /** A fetch that captures assignments from every response it returns. */
    wrapFetch(f: typeof fetch): typeof fetch;
    /** The assignment for `experimentId`, or the most recently captured one. */
    getAssignment(experimentId?: number | string): Assignment | null;
    getAllAssignments(): Assignment[];
    getVisitorId(): string;
    getSessionId(): string;
    /** Posts one conversion event; never throws. */
    track(name: string, meta?: Record<string, unknown> | null, options?: TrackOptions): Promise<TrackResult>;
    /**
     * Tracks clicks on `[data-cachely-track]` with one delegated, passive, capturing listener
     * on `root` (default `document`). Idempotent; returns a function that removes it.
     */
    enableDeclarativeTracking(root?: Root): () => void;
};
/**
 * Creates a tracker; reads any stored assignments and ids at once (never throws).
 */
export declare function createTracker(options: TrackerOptions): Tracker;
/**
 * The tracker under the name the original library used; the same function as
 * createTracker.
 */
export declare const createCachelyExperimentTracker: typeof createTracker;
