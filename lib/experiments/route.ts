/**
 * Experiment route patterns (pure; shared by management validation and the edge).
 * A pattern is a path after `/~api`. `prefix` (the default) matches the pattern and
 * everything below it on a segment boundary: `/posts` matches `/posts` and `/posts/1`
 * but not `/postscript`; `/` matches every path. `exact` matches the path only.
 * Matching is case-sensitive, like the upstream paths it selects (docs/decisions.md).
 */
/** How routePattern is matched against the path after `/~api`. */
export type RouteMatch = "prefix" | "exact";
export const ROUTE_MATCHES = ["prefix", "exact"] as const satisfies readonly RouteMatch[];

/** Longest pattern accepted; upstream paths are never longer in practice. */
export const MAX_ROUTE_PATTERN = 512;

/**
 * Normalises a user-supplied pattern: an optional leading `/~api` is stripped (as for
 * regenerate's apiPath), a query or fragment is refused, trailing slashes of a prefix
 * pattern are dropped (`/posts/` == `/posts`). Returns the pattern or a problem string.
 */
export function normalizeRoutePattern(
  raw: string,
  match: RouteMatch,
): { pattern: string } | { problem: string } {
  let p = raw.trim();
  if (p === "") return { problem: "must not be empty" };
  if (p.length > MAX_ROUTE_PATTERN) {
    return { problem: `must be at most ${MAX_ROUTE_PATTERN} chars` };
  }
  if (!p.startsWith("/")) return { problem: 'must start with "/"' };
  if (/[?#\s]/.test(p)) return { problem: "must be a path without query, fragment or spaces" };
  if (p === "/~api" || p.startsWith("/~api/")) p = p.slice(5) || "/";
  if (match === "prefix" && p.length > 1) p = p.replace(/\/+$/, "") || "/";
  return { pattern: p };
}

/** True when `path` (no query) is selected by the pattern. Allocation-free: edge hot path. */
export function routeMatches(pattern: string, match: RouteMatch, path: string): boolean {
  if (match === "exact") return path === pattern;
  if (pattern === "/") return true;
  if (!path.startsWith(pattern)) return false;
  return path.length === pattern.length || path.charCodeAt(pattern.length) === 47; // "/"
}

/** True when some path is matched by both routes (activation forbids that, SPEC). */
export function routesOverlap(
  a: { pattern: string; match: RouteMatch },
  b: { pattern: string; match: RouteMatch },
): boolean {
  if (a.match === "exact" && b.match === "exact") return a.pattern === b.pattern;
  if (a.match === "exact") return routeMatches(b.pattern, "prefix", a.pattern);
  if (b.match === "exact") return routeMatches(a.pattern, "prefix", b.pattern);
  return routeMatches(a.pattern, "prefix", b.pattern) ||
    routeMatches(b.pattern, "prefix", a.pattern);
}
