/**
 * Website implementation check (SPEC "Tenants"): fetch the tenant's public site
 * through the SSRF-guarded fetcher, detect its platform and analyse the page.
 * Input problems are 400s (thrown); fetch problems come back as `{ ok:false, ... }`.
 */
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { ApiError, type ErrorCode } from "../errors.ts";
import { providerFor, type ProviderKind } from "../providers/mod.ts";
import { detectPlatform, type Platform } from "./platform.ts";
import { type Analysis, analyzePage, type SiteContext } from "./html_signals.ts";
import { guardedDeps, type GuardedError, guardedFetch } from "../net/guarded_fetch.ts";

/** One fetch chain (redirects and body included) never takes longer than this. */
export const CHECK_TIMEOUT_CAP_MS = 8_000;
/** Redirects followed, each target checked like the first URL. */
export const MAX_REDIRECTS = 5;
/** Bytes of the page analysed; the rest is not read. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const USER_AGENT = "Cachely-ImplementationCheck/1";

export type WebsiteCheckResult =
  | { ok: true; finalUrl: string; platform: Platform; analysis: Analysis }
  | {
    ok: false;
    finalUrl: string;
    error: Exclude<GuardedError, "too_large"> | "http_error" | "not_html";
    message: string;
  };

function invalidUrl(message: string, code: ErrorCode = "bad_request"): ApiError {
  return new ApiError(400, code, `Invalid url: ${message}`, {
    fields: [{ path: "url", message }],
  });
}

/** The management host, the proxy domain and every host under it are ours, never a tenant's site. */
export function isProductHost(s: Services, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const proxyHost = s.config.proxyDomain.replace(/:\d+$/, "");
  const appHost = new URL(s.config.publicUrl).hostname;
  return host === appHost || host === proxyHost || host.endsWith(`.${proxyHost}`);
}

/** Parses the requested URL; throws the 400 for anything that is not an http(s) URL of a site. */
export function parseSiteUrl(s: Services, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidUrl("not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidUrl("must use http or https");
  }
  if (isProductHost(s, url.hostname)) {
    throw invalidUrl("must be your website, not a Cachely host", "product_domain");
  }
  return url;
}

export function siteContext(s: Services, tenant: Tenant): SiteContext {
  const provider = providerFor(tenant.cms as ProviderKind, {
    imageHostAssetOrigin: s.config.imageHostAssetOrigin,
    imageHostApiOrigin: s.config.imageHostApiOrigin,
  }, tenant.cloudName);
  const cmsHosts = [...provider.assetHosts];
  const priv = provider.privateHost;
  if (priv) cmsHosts.push(priv);
  for (const origin of [tenant.apiOrigin ?? provider.defaultApiOrigin]) {
    if (!origin) continue;
    try {
      cmsHosts.push(new URL(origin).hostname);
    } catch { /* stored origins are validated; ignore a broken one */ }
  }
  const proxyHost = s.config.proxyDomain.replace(/:\d+$/, "");
  return {
    tenantHosts: [`${tenant.slug}.${proxyHost}`, `${tenant.slug}.preview.${proxyHost}`],
    cmsHosts: cmsHosts.filter((h) => !isProductHost(s, h)),
    cmsLabel: provider.label,
  };
}

export async function runWebsiteCheck(
  s: Services,
  tenant: Tenant,
  url: URL,
): Promise<WebsiteCheckResult> {
  // Never a private address, whatever ALLOW_PRIVATE_UPSTREAMS says: the URL is typed by any
  // tenant member and the answer is shown back (docs/decisions.md "Implementation checks").
  const fetched = await guardedFetch(guardedDeps(s, false), {
    url,
    headers: [["user-agent", USER_AGENT], ["accept", "text/html,*/*;q=0.8"]],
    maxRedirects: MAX_REDIRECTS,
    timeoutMs: Math.min(s.config.upstreamTimeoutMs, CHECK_TIMEOUT_CAP_MS),
    maxBytes: MAX_PAGE_BYTES,
    over: "truncate", // a page analysed in part
  });
  if (!fetched.ok) {
    const { url: finalUrl, error, message } = fetched;
    // too_large is never the answer when truncating
    return { ok: false, finalUrl, error: error === "too_large" ? "fetch_failed" : error, message };
  }
  const { url: finalUrl, status, headers } = fetched;
  const body = new TextDecoder().decode(fetched.body);
  if (status >= 400) {
    return { ok: false, finalUrl, error: "http_error", message: `The site answered ${status}` };
  }
  const type = (headers.get("content-type") ?? "").toLowerCase();
  const looksHtml = type === ""
    ? /^\s*(?:<!doctype html|<html)/i.test(body)
    : type.includes("text/html") || type.includes("application/xhtml");
  if (!looksHtml) {
    return {
      ok: false,
      finalUrl,
      error: "not_html",
      message: `Expected an HTML page, got ${type.split(";")[0] || "no content type"}`,
    };
  }
  const ctx = siteContext(s, tenant);
  // An API served from the site's own host would make every same-site URL look like the CMS.
  const siteHost = new URL(finalUrl).hostname;
  ctx.cmsHosts = ctx.cmsHosts.filter((h) => h !== siteHost);
  return {
    ok: true,
    finalUrl,
    platform: detectPlatform(body, headers),
    analysis: analyzePage(body, headers, ctx),
  };
}
