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

import {
  type Assignment,
  defaultStorage,
  parseStored,
  positiveInt,
  randomId,
  safeGet,
  safeSet,
  SESSION_KEY,
  STORAGE_KEY,
  type StorageLike,
  type StoredAssignments,
  toAssignment,
  VISITOR_KEY,
} from "./tracker_storage.ts";
import { enableDeclarativeTracking, type Root } from "./tracker_declarative.ts";

export {
  type Assignment,
  parseStored,
  SESSION_KEY,
  STORAGE_KEY,
  type StorageLike,
  type StoredAssignments,
  VISITOR_KEY,
} from "./tracker_storage.ts";
export { EXPERIMENT_ATTR, META_ATTR_PREFIX, type Root, TRACK_ATTR } from "./tracker_declarative.ts";

/** The experiment response headers the tracker reads (SPEC "Public proxy behaviour"). */
export const EXPERIMENT_HEADERS = {
  experimentId: "x-cachely-experiment-id",
  variantId: "x-cachely-variant-id",
  variantKey: "x-cachely-variant-key",
  profile: "x-cachely-experiment-profile",
} as const;

const EVENT_NAME_RE = /^[a-zA-Z0-9_.:-]{1,80}$/;
const MAX_URL_CHARS = 2048;

/** The four resolution errors of SPEC, plus request outcomes. */
export type TrackError =
  | "no_assignment"
  | "ambiguous_experiment"
  | "assignment_not_found"
  | "invalid_experiment_id"
  | "invalid_event_name"
  | "network_error"
  | "http_error";

export type TrackResult = { ok: boolean; id?: number; error?: TrackError; status?: number };

export type TrackOptions = { experimentId?: number | string };

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
  captureFromResponse(
    response: { headers: { get(name: string): string | null } },
  ): Assignment | null;
  /** A fetch that captures assignments from every response it returns. */
  wrapFetch(f: typeof fetch): typeof fetch;
  /** The assignment for `experimentId`, or the most recently captured one. */
  getAssignment(experimentId?: number | string): Assignment | null;
  getAllAssignments(): Assignment[];
  getVisitorId(): string;
  getSessionId(): string;
  /** Posts one conversion event; never throws. */
  track(
    name: string,
    meta?: Record<string, unknown> | null,
    options?: TrackOptions,
  ): Promise<TrackResult>;
  /**
   * Tracks clicks on `[data-cachely-track]` with one delegated, passive, capturing listener
   * on `root` (default `document`). Idempotent; returns a function that removes it.
   */
  enableDeclarativeTracking(root?: Root): () => void;
};

/**
 * Creates a tracker; reads any stored assignments and ids at once (never throws).
 */
// Long: a closure over one tracker's state (stored assignments, visitor and session ids, storages,
// fetch); captureFromResponse, resolve, post and track are its inner functions, each under 35
// lines, and the returned object reaches them all.
export function createTracker(options: TrackerOptions): Tracker {
  const session = options.sessionStorage === undefined
    ? defaultStorage("sessionStorage")
    : options.sessionStorage;
  const local = options.localStorage === undefined
    ? defaultStorage("localStorage")
    : options.localStorage;
  const doFetch: typeof fetch = options.fetch ??
    ((input, init) => globalThis.fetch(input, init));

  const loaded = parseStored(safeGet(session, STORAGE_KEY));
  const state: StoredAssignments = loaded.state;
  const persist = () => safeSet(session, STORAGE_KEY, JSON.stringify(state));
  if (loaded.legacy) persist();

  let visitorId = safeGet(local, VISITOR_KEY);
  if (!visitorId) {
    visitorId = randomId();
    safeSet(local, VISITOR_KEY, visitorId);
  }
  let sessionId = safeGet(session, SESSION_KEY);
  if (!sessionId) {
    sessionId = randomId();
    safeSet(session, SESSION_KEY, sessionId);
  }

  const all = () => Object.values(state.assignmentsById);

  function captureFromResponse(
    response: { headers: { get(name: string): string | null } },
  ): Assignment | null {
    try {
      const h = response?.headers;
      if (!h) return null;
      const a = toAssignment({
        experimentId: h.get(EXPERIMENT_HEADERS.experimentId),
        variantId: h.get(EXPERIMENT_HEADERS.variantId),
        variantKey: h.get(EXPERIMENT_HEADERS.variantKey),
        profile: h.get(EXPERIMENT_HEADERS.profile),
        capturedAt: Date.now(),
      });
      if (!a) return null;
      state.assignmentsById[String(a.experimentId)] = a;
      state.latestExperimentId = a.experimentId;
      persist();
      return a;
    } catch {
      return null;
    }
  }

  function resolve(
    options: TrackOptions | undefined,
  ): { a: Assignment } | { error: TrackError } {
    const wanted = options?.experimentId;
    if (wanted !== undefined && wanted !== null) {
      const id = positiveInt(wanted);
      if (id === null) return { error: "invalid_experiment_id" };
      const list = all();
      if (list.length === 0) return { error: "no_assignment" };
      const a = state.assignmentsById[String(id)];
      return a ? { a } : { error: "assignment_not_found" };
    }
    const list = all();
    if (list.length === 0) return { error: "no_assignment" };
    if (list.length > 1) return { error: "ambiguous_experiment" };
    return { a: list[0] };
  }

  async function post(body: string): Promise<TrackResult> {
    const init: RequestInit = {
      method: "POST",
      // text/plain keeps this a CORS simple request (no preflight); the server parses JSON.
      headers: { "content-type": "text/plain;charset=UTF-8" },
      body,
      credentials: "omit",
      mode: "cors",
    };
    let res: Response;
    try {
      // keepalive lets the request outlive a navigation the click started.
      res = await doFetch(options.endpoint, { ...init, keepalive: true });
    } catch {
      try {
        // Some runtimes reject keepalive (or its body size): once more without it.
        res = await doFetch(options.endpoint, init);
      } catch {
        return { ok: false, error: "network_error" };
      }
    }
    let parsed: { ok?: boolean; id?: unknown } | null = null;
    try {
      parsed = await res.json();
    } catch { /* not JSON */ }
    if (res.ok && parsed?.ok === true && typeof parsed.id === "number") {
      return { ok: true, id: parsed.id };
    }
    return { ok: false, error: "http_error", status: res.status };
  }

  async function track(
    name: string,
    meta?: Record<string, unknown> | null,
    opts?: TrackOptions,
  ): Promise<TrackResult> {
    try {
      const r = resolve(opts);
      if ("error" in r) return { ok: false, error: r.error };
      if (typeof name !== "string" || !EVENT_NAME_RE.test(name)) {
        return { ok: false, error: "invalid_event_name" };
      }
      const url = readSafely(options.pageUrl ?? (() => globalThis.location?.href));
      const referrer = readSafely(
        options.referrer ??
          (() => (globalThis as { document?: { referrer?: string } }).document?.referrer),
      );
      const body = JSON.stringify({
        tenantSlug: options.tenantSlug,
        experimentId: r.a.experimentId,
        variantId: r.a.variantId,
        variantKey: r.a.variantKey,
        eventName: name,
        visitorId,
        sessionId,
        ...(url ? { url: url.slice(0, MAX_URL_CHARS) } : {}),
        ...(referrer ? { referrer: referrer.slice(0, MAX_URL_CHARS) } : {}),
        ...(meta && typeof meta === "object" && !Array.isArray(meta) ? { metadata: meta } : {}),
      });
      return await post(body);
    } catch {
      return { ok: false, error: "network_error" };
    }
  }

  const tracker: Tracker = {
    captureFromResponse,
    wrapFetch(f: typeof fetch): typeof fetch {
      return async (input, init) => {
        const res = await f(input, init);
        captureFromResponse(res);
        return res;
      };
    },
    getAssignment(experimentId?: number | string): Assignment | null {
      if (experimentId === undefined) {
        return state.latestExperimentId === null
          ? null
          : state.assignmentsById[String(state.latestExperimentId)] ?? null;
      }
      const id = positiveInt(experimentId);
      return id === null ? null : state.assignmentsById[String(id)] ?? null;
    },
    getAllAssignments: () => all().map((a) => ({ ...a })),
    getVisitorId: () => visitorId!,
    getSessionId: () => sessionId!,
    track,
    enableDeclarativeTracking: (root?: Root) => enableDeclarativeTracking(tracker, root),
  };
  return tracker;
}

function readSafely(f: () => string | undefined): string | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * The tracker under the name the original library used; the same function as
 * createTracker.
 */
export const createCachelyExperimentTracker: typeof createTracker = createTracker;
