/** Tenant slugs: 3-63 of a-z, 0-9 and hyphen, not starting or ending with a hyphen. */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/**
 * Words that would collide with our own hosts, paths, product pages or well-known names.
 * `demo` is the host of the public demo URLs (lib/demos/mod.ts DEMO_TENANT_SLUG). The list
 * is copied in docs/decisions.md "Reserved slugs" (a test keeps the two equal).
 */
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
  // Product words: demos, docs and pages a visitor could mistake a tenant for.
  "demo",
  "demos",
  "example",
  "examples",
  "sandbox",
  "playground",
  "pricing",
  "plans",
  "about",
  "contact",
  "security",
  "privacy",
  "terms",
  "legal",
  "abuse",
  "sdk",
  "openapi",
  "webhooks",
  "oauth",
  "console",
  "portal",
  "health",
  "metrics",
  "official",
  "team",
]);

/** Returns why a slug is unusable, or null. */
export function slugProblem(slug: string): string | null {
  if (!SLUG_RE.test(slug)) {
    return "must be 3-63 characters of a-z, 0-9 and hyphen, not starting or ending with a hyphen";
  }
  if (RESERVED_SLUGS.has(slug)) return "is reserved";
  return null;
}
