/** The proxy domain tenant hosts live under when none is given. */
export declare const DEFAULT_PROXY_DOMAIN = "cachely.app";
/** Tenant slugs: 3-63 of a-z, 0-9 and hyphen, not starting or ending with a hyphen. */
export declare const TENANT_SLUG_RE: RegExp;
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
export declare function optionError(fn: string, option: string, detail: string): Error;
/**
 * `CACHELY_PROXY_URL` (the tenant origin) from the environment, where there is one: Node's
 * `process.env`, Deno's env (with permission), or in a browser bundle the public name its
 * framework exposes (`VITE_`, `NEXT_PUBLIC_`, `NUXT_PUBLIC_`: `browserProxyUrl`). The CMS
 * adapters go through Cachely when it is set and talk to the CMS directly when it is not (the
 * original product's fallback).
 */
export declare function envProxyUrl(): string | undefined;
/**
 * True when the origin is the tenant's verified domain, learnt at the first request
 * (sdk/domain_lookup.ts): `customDomain: true`, a `tenant`, no `tenantOrigin` and no
 * CACHELY_CUSTOM_DOMAIN. Until then resolveTenantOrigin's answer (the tenant host) is used.
 */
export declare function asksVerifiedDomain(t: TenantTarget): boolean;
/** The tenant the options name, else CACHELY_PROXY_URL as tenantOrigin; null: neither (direct). */
export declare function targetOrEnv(t: TenantTarget): TenantTarget | null;
/** The tenant origin (no trailing slash) the options point at. */
export declare function resolveTenantOrigin(fn: string, t: TenantTarget): string;
