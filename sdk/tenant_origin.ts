/**
 * Where a tenant is reached: `<slug>.<proxy domain>`, a verified custom domain, or an
 * explicit origin. Checked when a client is created, so a wrong option fails at
 * start-up with its name in the message, never at the first request.
 */
import { isHostname } from "./providers.ts";

/** The proxy domain tenant hosts live under when none is given. */
export const DEFAULT_PROXY_DOMAIN = "cachely.app";

/** Tenant slugs: 3–63 of a-z, 0-9 and hyphen, not starting or ending with a hyphen. */
export const TENANT_SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** How to reach a tenant: one of `tenant`, `customDomain` or `tenantOrigin`. */
export type TenantTarget = {
  /** The tenant slug: requests go to `https://<tenant>.<proxyDomain>`. */
  tenant?: string;
  /** A verified custom domain of the tenant (wins over `tenant`). */
  customDomain?: string;
  /** The proxy domain of your Cachely instance (default `cachely.app`). */
  proxyDomain?: string;
  /** An explicit tenant origin such as `http://acme.localhost:8000` (wins over both). */
  tenantOrigin?: string;
};

/** An `Error` whose message names the option (SPEC style: detail after the colon). */
export function optionError(fn: string, option: string, detail: string): Error {
  return new Error(`${fn}: invalid option ${option}: ${detail}`);
}

/**
 * `CACHELY_PROXY_URL` (the tenant origin) from the environment, where there is one: Node's
 * `process.env`, Deno's env (with permission). The CMS adapters go through Cachely when it
 * is set and talk to the CMS directly when it is not (the original product's fallback).
 */
export function envProxyUrl(): string | undefined {
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get(k: string): string | undefined } };
  };
  try {
    const v = g.process?.env?.CACHELY_PROXY_URL ?? g.Deno?.env?.get("CACHELY_PROXY_URL");
    return v && v.trim() ? v.trim() : undefined;
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/** The tenant the options name, else CACHELY_PROXY_URL as tenantOrigin; null: neither (direct). */
export function targetOrEnv(t: TenantTarget): TenantTarget | null {
  if (t.tenant !== undefined || t.customDomain !== undefined || t.tenantOrigin !== undefined) {
    return t;
  }
  const env = envProxyUrl();
  return env ? { ...t, tenantOrigin: env } : null;
}

const LOCAL_RE = /(^|\.)localhost(:\d+)?$|^127\.0\.0\.1(:\d+)?$/;

/** The tenant origin (no trailing slash) the options point at. */
export function resolveTenantOrigin(fn: string, t: TenantTarget): string {
  if (t.tenantOrigin !== undefined) {
    let u: URL;
    try {
      u = new URL(String(t.tenantOrigin));
    } catch {
      throw optionError(fn, "tenantOrigin", `${JSON.stringify(t.tenantOrigin)} is not a URL`);
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") {
      throw optionError(fn, "tenantOrigin", "must be an http or https origin");
    }
    return u.origin;
  }
  if (t.customDomain !== undefined) {
    const d = String(t.customDomain).trim().toLowerCase();
    if (!isHostname(d)) {
      throw optionError(
        fn,
        "customDomain",
        `${JSON.stringify(t.customDomain)} is not a hostname such as cdn.example.com`,
      );
    }
    return `https://${d}`;
  }
  if (t.tenant === undefined || t.tenant === null || t.tenant === "") {
    throw optionError(fn, "tenant", "is required (or customDomain or tenantOrigin)");
  }
  if (typeof t.tenant !== "string" || !TENANT_SLUG_RE.test(t.tenant)) {
    throw optionError(
      fn,
      "tenant",
      `${JSON.stringify(t.tenant)} is not a tenant slug (3-63 of a-z, 0-9 and -)`,
    );
  }
  const domain = (t.proxyDomain ?? DEFAULT_PROXY_DOMAIN).trim().toLowerCase();
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(domain) || domain.startsWith(".")) {
    throw optionError(fn, "proxyDomain", `${JSON.stringify(t.proxyDomain)} is not a domain`);
  }
  // Local instances (`localhost:8000`) are plain HTTP; everything else is HTTPS.
  const scheme = LOCAL_RE.test(domain) ? "http" : "https";
  return `${scheme}://${t.tenant}.${domain}`;
}
