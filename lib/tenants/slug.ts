/** Tenant slugs: 3–63 of a-z, 0-9 and hyphen, not starting or ending with a hyphen. */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** Words that would collide with our own hosts, paths or well-known names. */
export const RESERVED_SLUGS = new Set([
  "www",
  "api",
  "app",
  "admin",
  "dashboard",
  "static",
  "assets",
  "cdn",
  "mail",
  "smtp",
  "ftp",
  "preview",
  "edge",
  "cachely",
  "status",
  "docs",
  "help",
  "support",
  "login",
  "signup",
  "auth",
  "billing",
  "account",
  "settings",
  "blog",
  "proxy", // the default shared CNAME target, proxy.<PROXY_DOMAIN> (lib/domains/service.ts)
  "ns1",
  "ns2",
  "localhost",
  "root",
  "test",
  "internal",
]);

/** Returns why a slug is unusable, or null. */
export function slugProblem(slug: string): string | null {
  if (!SLUG_RE.test(slug)) {
    return "must be 3-63 characters of a-z, 0-9 and hyphen, not starting or ending with a hyphen";
  }
  if (RESERVED_SLUGS.has(slug)) return "is reserved";
  return null;
}
