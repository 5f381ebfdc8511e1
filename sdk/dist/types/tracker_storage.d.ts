/**
 * Tracker state helpers: guarded Web Storage access, generated ids, and the persisted
 * assignment shape with its legacy migration (SPEC "Client tracker contract").
 * Nothing here throws: a blocked or full storage behaves like no storage.
 */
/** Session storage key of the assignments (SPEC: `service.experiment`). */
export declare const STORAGE_KEY = "cachely.experiment";
/** Local storage key of the visitor id (kept across sessions when storage allows). */
export declare const VISITOR_KEY = "cachely.visitor";
/** Session storage key of the session id. */
export declare const SESSION_KEY = "cachely.session";
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
export declare function defaultStorage(name: "sessionStorage" | "localStorage"): StorageLike | null;
/** getItem that answers null instead of throwing. */
export declare function safeGet(s: StorageLike | null, key: string): string | null;
/** setItem that gives up silently (quota, private mode, blocked). */
export declare function safeSet(s: StorageLike | null, key: string, value: string): void;
/** A random id: randomUUID, else 128 random bits in hex, else time plus Math.random. */
export declare function randomId(): string;
/** A positive safe integer from a number or a decimal string; otherwise null. */
export declare function positiveInt(v: unknown): number | null;
/** Validates an assignment-like object (ids may be numeric strings, as in headers). */
export declare function toAssignment(v: unknown): Assignment | null;
/**
 * Parses what is stored under STORAGE_KEY. A legacy payload (one assignment object, as
 * written by tracker versions before 0.10) is accepted and reported as `legacy`, so the
 * caller rewrites it in the current shape.
 */
export declare function parseStored(raw: string | null): {
    state: StoredAssignments;
    legacy: boolean;
};
