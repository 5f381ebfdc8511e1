/**
 * Do the tenant hosts (`<slug>.<PROXY_DOMAIN>`, `<slug>.preview.<PROXY_DOMAIN>`, which serve
 * tenant-controlled HTML and script) share a registrable domain ("site") with the
 * dashboard (PUBLIC_URL)? Then a tenant page can set cookies for that whole site and
 * overwrite or flood the dashboard's ("cookie tossing"); `__Host-` cookies resist
 * overwriting but not flooding. The registrable domain comes from the Public Suffix
 * List (tldts, private section included: `a.github.io` and `b.github.io` are separate
 * sites). Loopback and `localhost` are exempt (local use; browsers treat them specially).
 * tldts (2.9 MB with the list) is imported only when two hosts could share a site at all:
 * a process loading it at every start took ~15 ms longer to answer (docs/decisions.md
 * "Start-up imports").
 */

const bareHost = (hostPort: string) => hostPort.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");

function isLocal(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" ||
    /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether two (non-local) hosts can be on one site: a registrable domain is a public suffix
 * and one label more, so two different hosts share one only when they end in the same two
 * labels or more; an IP address or a single label is a site of its own.
 */
export function mayShareSite(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.split("."), lb = b.split(".");
  return la.length >= 2 && lb.length >= 2 && la.at(-1) === lb.at(-1) && la.at(-2) === lb.at(-2);
}

/** The registrable domain both share, or null when they are separate sites (or local). */
export async function sharedCookieSite(
  publicUrl: string,
  proxyDomain: string,
): Promise<string | null> {
  const dashboard = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const tenants = bareHost(proxyDomain.toLowerCase());
  if (isLocal(dashboard) || isLocal(tenants)) return null;
  if (!mayShareSite(dashboard, tenants)) return null;
  const { getDomain } = await import("tldts");
  const a = getDomain(dashboard, { allowPrivateDomains: true });
  const b = getDomain(tenants, { allowPrivateDomains: true });
  // An IP address or an unknown suffix: compare the hosts themselves.
  const siteA = a ?? dashboard;
  const siteB = b ?? tenants;
  return siteA === siteB ? siteA : null;
}

export function sharedCookieSiteMessage(site: string): string {
  return `PROXY_DOMAIN and PUBLIC_URL share the registrable domain ${site}: tenant hosts serve ` +
    `tenant-controlled HTML and script, which could set cookies for all of ${site} and ` +
    `overwrite or flood the dashboard's session cookies (cookie tossing). Serve tenant hosts ` +
    `from a separate registrable domain (as github.io and vercel.app do; docs/operations.md), ` +
    `or set ALLOW_SHARED_COOKIE_SITE=true to accept the risk explicitly.`;
}
