/**
 * arctic (OAuth 2.0 client), imported once on first use: only OAuth sign-ins need it, so a
 * fresh process does not load it (cold start, resident memory). A literal specifier, so Deno
 * Deploy resolves it.
 */
let arctic: Promise<typeof import("arctic")> | undefined;

export const loadArctic = (): Promise<typeof import("arctic")> => arctic ??= import("arctic");
