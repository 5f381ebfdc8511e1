/**
 * Where a tenant is reached: `<slug>.<proxy domain>`, a verified custom domain, or an
 * explicit origin. Checked when a client is created, so a wrong option fails at
 * start-up with its name in the message, never at the first request.
 */
import { isHostname } from "./providers.ts";

/** The proxy domain tenant hosts live under when none is given. */
export const DEFAULT_PROXY_DOMAIN = "cachely.app";

/** Tenant slugs: 3-63 of a-z, 0-9 and hyphen, not starting or ending with a hyphen. */
export const TENANT_SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** How to reach a tenant: one of `tenant`, `customDomain` or `tenantOrigin`. */
export type TenantTarget = {
  /** The tenant slug: requests go to `https://<tenant>.<proxyDomain>`. */
  tenant?: string;
  /**
   * A verified custom domain of the tenant (wins over `tenant`). `true` (the original SDK's
   * form): the domain configured in the environment (`CACHELY_CUSTOM_DOMAIN`, also with a
   * framework's public prefix such as `NEXT_PUBLIC_`), else the `tenant`'s verified domain,
   * asked of its host (`/~domain`) at the first request, once per process; none verified, or
   * no answer within 3 s: the `tenant`'s own host. Synchronous URL APIs (`tenantOrigin`,
   * `proxyUrl`) give the tenant's host until that first request has resolved it.
   */
  customDomain?: string | true;
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
 * `process.env`, Deno's env (with permission), or in a browser bundle the public name its
 * framework exposes (`VITE_`, `NEXT_PUBLIC_`, `NUXT_PUBLIC_`: `browserProxyUrl`). The CMS
 * adapters go through Cachely when it is set and talk to the CMS directly when it is not (the
 * original product's fallback).
 */
export function envProxyUrl(): string | undefined {
  return envSetting("CACHELY_PROXY_URL", [""]) ?? browserProxyUrl() ??
    envSetting("CACHELY_PROXY_URL", ["VITE_", "NEXT_PUBLIC_", "NUXT_PUBLIC_"]);
}

type MetaWithEnv = { env?: Record<string, string | undefined> };
type NuxtGlobal = { __NUXT__?: { config?: { public?: Record<string, unknown> } } };

/**
 * The proxy URL as browser bundles carry it. Bundlers replace only these exact expressions at
 * build time, in dependencies too: Vite `import.meta.env.VITE_*`, Next (webpack, Turbopack)
 * `process.env.NEXT_PUBLIC_*`; Nuxt serialises runtimeConfig.public (NUXT_PUBLIC_* fills
 * `cachelyProxyUrl`) into `window.__NUXT__.config`. Elsewhere each is undefined or throws.
 */
function browserProxyUrl(): string | undefined {
  const reads = [
    () => (import.meta as MetaWithEnv).env?.VITE_CACHELY_PROXY_URL,
    // @ts-ignore: Node's global, untyped where the package's types are built (no @types/node)
    () => process.env.NEXT_PUBLIC_CACHELY_PROXY_URL,
    () => (globalThis as NuxtGlobal).__NUXT__?.config?.public?.cachelyProxyUrl,
  ];
  for (const read of reads) {
    try {
      const v = read();
      if (typeof v === "string" && v.trim()) return v.trim();
    } catch { /* no such global here (`process` in a browser) */ }
  }
  return undefined;
}

/** Public-variable prefixes of the frameworks `cachely setup` writes env files for. */
const PUBLIC_PREFIXES = ["", "NEXT_PUBLIC_", "NUXT_PUBLIC_", "PUBLIC_", "GATSBY_", "VITE_"];

/** A Cachely setting from the environment, bare or with one of `prefixes`. */
function envSetting(name: string, prefixes = PUBLIC_PREFIXES): string | undefined {
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get(k: string): string | undefined } };
  };
  for (const prefix of prefixes) {
    try {
      const k = prefix + name;
      const v = g.process?.env?.[k] ?? g.Deno?.env?.get(k);
      if (v && v.trim()) return v.trim();
    } catch {
      return undefined; // Deno without --allow-env
    }
  }
  return undefined;
}

/**
 * True when the origin is the tenant's verified domain, learnt at the first request
 * (sdk/domain_lookup.ts): `customDomain: true`, a `tenant`, no `tenantOrigin` and no
 * CACHELY_CUSTOM_DOMAIN. Until then resolveTenantOrigin's answer (the tenant host) is used.
 */
export function asksVerifiedDomain(t: TenantTarget): boolean {
  return t.customDomain === true && t.tenantOrigin === undefined && t.tenant !== undefined &&
    envSetting("CACHELY_CUSTOM_DOMAIN") === undefined;
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
  // `true`: the configured custom domain; none configured -> the tenant's host, same tenant.
  const configured = t.customDomain === true ? envSetting("CACHELY_CUSTOM_DOMAIN") : undefined;
  if (t.customDomain === true && configured === undefined && t.tenant === undefined) {
    throw optionError(
      fn,
      "customDomain",
      "true needs CACHELY_CUSTOM_DOMAIN in the environment, or a tenant",
    );
  }
  if (configured !== undefined || (t.customDomain !== undefined && t.customDomain !== true)) {
    const raw = configured ?? t.customDomain;
    const d = String(raw).trim().toLowerCase();
    if (!isHostname(d)) {
      throw optionError(
        fn,
        configured === undefined ? "customDomain" : "customDomain (CACHELY_CUSTOM_DOMAIN)",
        `${JSON.stringify(raw)} is not a hostname such as cdn.example.com`,
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
