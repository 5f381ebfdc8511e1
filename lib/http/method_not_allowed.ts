/**
 * What an unmatched API request deserves: 405 with Allow when the path exists under
 * other methods, else 404 (both in the one JSON error shape). Route paths are Hono
 * patterns (`/tenants/:slug/members`, `:id{[0-9]+}`, `*`), compiled once.
 */
export type RouteEntry = { method: string; path: string };

type Compiled = { method: string; re: RegExp };

export function compileRoutes(routes: RouteEntry[]): Compiled[] {
  return routes
    .filter((r) => r.method !== "ALL" && r.path !== "*" && r.path !== "/*")
    .map((r) => ({ method: r.method, re: patternToRegExp(r.path) }));
}

/** Methods under which `path` exists (HEAD with GET, OPTIONS never implied). */
export function allowedMethods(compiled: Compiled[], path: string): string[] {
  const out = new Set<string>();
  for (const r of compiled) if (r.re.test(path)) out.add(r.method);
  if (out.has("GET")) out.add("HEAD");
  return [...out].sort();
}

function patternToRegExp(pattern: string): RegExp {
  let src = "";
  for (const seg of pattern.split("/").filter(Boolean)) {
    if (seg === "*") {
      src += "(?:/.*)?";
      continue;
    }
    const m = /^:(\w+)(\{(.+)\})?(\?)?$/.exec(seg);
    if (m) src += m[4] ? `(?:/(?:${m[3] ?? "[^/]+"}))?` : `/(?:${m[3] ?? "[^/]+"})`;
    else src += "/" + seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${src || "/"}/?$`);
}
