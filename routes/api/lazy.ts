/**
 * The management API (routes/api/mod.ts: every route module and its zod schemas), imported
 * once, on the first request that needs it: tenant traffic and pages never do, so a fresh
 * process starts without it (cold start, resident memory). A literal specifier, so
 * Deno Deploy resolves it ahead.
 */
let api: Promise<typeof import("./mod.ts")> | undefined;

export const loadApi = (): Promise<typeof import("./mod.ts")> => api ??= import("./mod.ts");
