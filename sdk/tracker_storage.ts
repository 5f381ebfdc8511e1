/**
 * Tracker state helpers: guarded Web Storage access, generated ids, and the persisted
 * assignment shape with its legacy migration (SPEC "Client tracker contract").
 * Nothing here throws: a blocked or full storage behaves like no storage.
 */

/** Session storage key of the assignments (SPEC: `service.experiment`). */
export const STORAGE_KEY = "cachely.experiment";
/** Local storage key of the visitor id (kept across sessions when storage allows). */
export const VISITOR_KEY = "cachely.visitor";
/** Session storage key of the session id. */
export const SESSION_KEY = "cachely.session";

/** One captured assignment. `profile` is informational (the transform profile or "control"). */
export type Assignment = {
  experimentId: number;
  variantId: number;
  variantKey: string;
  profile: string | null;
  capturedAt: number;
};

/** The persisted shape under STORAGE_KEY. */
export type StoredAssignments = {
  assignmentsById: Record<string, Assignment>;
  latestExperimentId: number | null;
};

/** The subset of the Web Storage API the tracker uses. */
export type StorageLike = {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
};

/** Storage access guarded: reading `window.sessionStorage` itself throws when storage is blocked. */
export function defaultStorage(name: "sessionStorage" | "localStorage"): StorageLike | null {
  try {
    const s = (globalThis as unknown as Record<string, StorageLike | undefined>)[name];
    return s ?? null;
  } catch {
    return null;
  }
}

/** getItem that answers null instead of throwing. */
export function safeGet(s: StorageLike | null, key: string): string | null {
  if (!s) return null;
  try {
    return s.getItem(key);
  } catch {
    return null;
  }
}

/** setItem that gives up silently (quota, private mode, blocked). */
export function safeSet(s: StorageLike | null, key: string, value: string): void {
  if (!s) return;
  try {
    s.setItem(key, value);
  } catch { /* quota, private mode, blocked: memory already has it */ }
}

/** A random id: randomUUID, else 128 random bits in hex, else time plus Math.random. */
export function randomId(): string {
  try {
    const c = (globalThis as { crypto?: Crypto }).crypto;
    if (c?.randomUUID) return c.randomUUID();
    if (c?.getRandomValues) {
      return Array.from(
        c.getRandomValues(new Uint8Array(16)),
        (b) => b.toString(16).padStart(2, "0"),
      )
        .join("");
    }
  } catch { /* fall through */ }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${
    Math.random().toString(36).slice(2)
  }`;
}

/** A positive safe integer from a number or a decimal string; otherwise null. */
export function positiveInt(v: unknown): number | null {
  const n = typeof v === "number"
    ? v
    : typeof v === "string" && /^\d{1,15}$/.test(v.trim())
    ? Number(v.trim())
    : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Validates an assignment-like object (ids may be numeric strings, as in headers). */
export function toAssignment(v: unknown): Assignment | null {
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const experimentId = positiveInt(o.experimentId);
  const variantId = positiveInt(o.variantId);
  if (experimentId === null || variantId === null) return null;
  if (typeof o.variantKey !== "string" || o.variantKey === "") return null;
  return {
    experimentId,
    variantId,
    variantKey: o.variantKey,
    profile: typeof o.profile === "string" ? o.profile : null,
    capturedAt: typeof o.capturedAt === "number" ? o.capturedAt : 0,
  };
}

/**
 * Parses what is stored under STORAGE_KEY. A legacy payload (one assignment object, as
 * written by tracker versions before 0.10) is accepted and reported as `legacy`, so the
 * caller rewrites it in the current shape.
 */
export function parseStored(raw: string | null): { state: StoredAssignments; legacy: boolean } {
  const empty = { state: { assignmentsById: {}, latestExperimentId: null }, legacy: false };
  if (!raw) return empty;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (!v || typeof v !== "object") return empty;
  const o = v as Record<string, unknown>;
  if (o.assignmentsById && typeof o.assignmentsById === "object") {
    const assignmentsById: Record<string, Assignment> = {};
    for (const a of Object.values(o.assignmentsById as Record<string, unknown>)) {
      const parsed = toAssignment(a);
      if (parsed) assignmentsById[String(parsed.experimentId)] = parsed;
    }
    const latest = positiveInt(o.latestExperimentId);
    return {
      state: {
        assignmentsById,
        latestExperimentId: latest !== null && assignmentsById[String(latest)] ? latest : null,
      },
      legacy: false,
    };
  }
  const single = toAssignment(o);
  if (!single) return empty;
  return {
    state: {
      assignmentsById: { [String(single.experimentId)]: single },
      latestExperimentId: single.experimentId,
    },
    legacy: true,
  };
}
