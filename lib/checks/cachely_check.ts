/**
 * Implementation check (SPEC "Tenants", path segment cachely-check): read-only. Probes
 * the tenant's website surface twice with plain GETs - the active custom domain
 * (production) or else the preview host when the site proxy is on - and decides from
 * the service's own x-cachely-* edge headers whether the site is served through
 * Cachely. Generic cache headers (Age, X-Cache, CF-Cache-Status, Via) prove nothing.
 * The API proxy and custom-domain rows report configuration only.
 */
import type { Services } from "../services.ts";
import { previewBase, type Tenant } from "../tenants/service.ts";
import { type Domain, listDomains } from "../domains/service.ts";
import { type Probe, probeSurface, servedByCachely } from "./probe.ts";
import { CHECK_TIMEOUT_CAP_MS } from "./website_check.ts";
import { guardedDeps } from "../net/guarded_fetch.ts";

export type CheckState = "implemented" | "active_needs_attention" | "not_detected" | "not_enabled";
export type ItemState = "pass" | "warn" | "fail" | "info" | "skipped";
export type CheckItem = { id: string; label: string; state: ItemState; detail: string };

export type CachelyCheckResult = {
  state: CheckState;
  headline: string;
  probeUrl: string | null;
  surfaceLabel: "production" | "preview" | null;
  items: CheckItem[];
  probes: Probe[];
};

type Surface = { label: "production" | "preview"; url: string; guarded: boolean };

/** Same rule as the edge snapshot (lib/edge_config/projector.ts): an origin and the proxy not off. */
function siteProxyOn(t: Tenant): boolean {
  return t.websiteOrigin !== null && (t.settings.siteProxy ?? true);
}

function surfaceFor(s: Services, t: Tenant, active: Domain[]): Surface | null {
  if (!siteProxyOn(t)) return null;
  const scheme = new URL(s.config.publicUrl).protocol;
  // A custom domain is tenant input (its DNS too), so its address is checked; the
  // preview host is built from our own PROXY_DOMAIN.
  if (active[0]) {
    return { label: "production", url: `${scheme}//${active[0].hostname}/`, guarded: true };
  }
  return { label: "preview", url: `${previewBase(s, t.slug)}/`, guarded: false };
}

export async function runCachelyCheck(s: Services, tenant: Tenant): Promise<CachelyCheckResult> {
  const domains = await listDomains(s, tenant.id);
  const active = domains.filter((d) => d.status === "active");
  const surface = surfaceFor(s, tenant, active);
  const config = [apiProxyItem(tenant), customDomainItem(domains)];
  if (!surface) {
    return {
      state: "not_enabled",
      headline: "No website is served through Cachely: the site proxy is off (API or asset use)",
      probeUrl: null,
      surfaceLabel: null,
      items: [
        {
          id: "website_surface",
          label: "Website surface",
          state: "skipped",
          detail: tenant.websiteOrigin === null
            ? "No website origin is configured"
            : "The site proxy is turned off",
        },
        ...config,
      ],
      probes: [],
    };
  }
  const deps = {
    ...guardedDeps(s, s.config.allowPrivateUpstreams || !surface.guarded),
    timeoutMs: Math.min(s.config.upstreamTimeoutMs, CHECK_TIMEOUT_CAP_MS),
  };
  // Sequential on purpose: the second probe shows whether the edge cached the first.
  const probes = [await probeSurface(deps, surface.url), await probeSurface(deps, surface.url)];
  const served = probes.filter(servedByCachely).length;
  const healthy = probes.filter((p) => p.ok && servedByCachely(p)).length;
  const where = surface.label === "production" ? new URL(surface.url).host : "The preview host";
  const state: CheckState = healthy === probes.length
    ? "implemented"
    : served > 0
    ? "active_needs_attention"
    : "not_detected";
  const headline = state === "implemented"
    ? `${where} is served through Cachely`
    : state === "active_needs_attention"
    ? `${where} reaches Cachely but needs attention`
    : `${where} is not served through Cachely`;
  return {
    state,
    headline,
    probeUrl: surface.url,
    surfaceLabel: surface.label,
    items: [
      {
        id: "website_surface",
        label: "Website surface",
        state: "pass",
        detail: surface.label === "production"
          ? `Custom domain ${active[0].hostname} is active`
          : `Preview host ${new URL(surface.url).host} (site proxy on, no active custom domain)`,
      },
      edgeHeadersItem(served, probes.length),
      pageStatusItem(probes),
      edgeCacheItem(probes),
      ...config,
    ],
    probes,
  };
}

function edgeHeadersItem(served: number, total: number): CheckItem {
  const base = { id: "edge_headers", label: "Served through Cachely" };
  if (served === total) {
    return {
      ...base,
      state: "pass",
      detail: `Cachely edge headers on ${served} of ${total} probes`,
    };
  }
  return {
    ...base,
    state: served > 0 ? "warn" : "fail",
    detail: served > 0
      ? `Cachely edge headers on ${served} of ${total} probes`
      : "No Cachely edge headers: the address does not reach Cachely (check DNS)",
  };
}

function describe(p: Probe): string {
  return p.status !== null ? String(p.status) : (p.error ?? "no answer");
}

function pageStatusItem(probes: Probe[]): CheckItem {
  const base = { id: "page_status", label: "Page response" };
  const answers = probes.map(describe).join(", ");
  return probes.every((p) => p.ok)
    ? { ...base, state: "pass", detail: `Answered ${answers}` }
    : { ...base, state: "fail", detail: `Answered ${answers}` };
}

function edgeCacheItem(probes: Probe[]): CheckItem {
  const base = { id: "edge_cache", label: "Edge cache" };
  const second = probes[probes.length - 1];
  const outcome = second.headers["x-cachely-cache"];
  if (!outcome) return { ...base, state: "skipped", detail: "No cache outcome reported" };
  return outcome === "HIT"
    ? { ...base, state: "pass", detail: "The second probe was a cache HIT" }
    : {
      ...base,
      state: "info",
      detail: `The second probe was ${outcome} (cacheTTL 0, or the page is no-store or private)`,
    };
}

function apiProxyItem(t: Tenant): CheckItem {
  const base = { id: "api_proxy", label: "API proxy (configuration)" };
  if (!t.apiOrigin) return { ...base, state: "info", detail: "No API origin configured" };
  const host = new URL(t.apiOrigin).host;
  if (t.apiAuthMode !== "none" && t.apiTokenEnc === null) {
    return {
      ...base,
      state: "warn",
      detail: `Origin ${host}, auth ${t.apiAuthMode}, no token set`,
    };
  }
  return {
    ...base,
    state: "pass",
    detail: `Origin ${host}, auth ${t.apiAuthMode}${t.apiAuthMode === "none" ? "" : ", token set"}`,
  };
}

function customDomainItem(domains: Domain[]): CheckItem {
  const base = { id: "custom_domain", label: "Custom domain (configuration)" };
  const active = domains.filter((d) => d.status === "active").map((d) => d.hostname);
  if (active.length > 0) return { ...base, state: "pass", detail: `Active: ${active.join(", ")}` };
  if (domains.length > 0) {
    const list = domains.map((d) => `${d.hostname} (${d.status})`).join(", ");
    return { ...base, state: "warn", detail: `None active: ${list}` };
  }
  return { ...base, state: "info", detail: "No custom domain" };
}
