/**
 * `@cachely/sdk/prismic`: the official `@prismicio/client` with its API calls on the
 * tenant's `/~api/` proxy, asset URLs on the tenant host, and experiment assignments
 * captured by your tracker (the same tracker then sends conversion events).
 *
 * @example
 * ```ts
 * import { createCachelyPrismicClient } from "@cachely/sdk/prismic";
 * import { createCachelyExperimentTracker } from "@cachely/sdk";
 *
 * const experiments = createCachelyExperimentTracker({ tenantSlug: "acme", endpoint });
 * const client = createCachelyPrismicClient({ repositoryName: "my-repo", tenant: "acme", experiments });
 * const home = await client.getSingle("homepage");
 * ```
 *
 * @module
 */
import * as prismic from "@prismicio/client";
import { type CachelyFetch, createCachelyFetch, type ExperimentCapture } from "./fetch.ts";
import { optionError, targetOrEnv, type TenantTarget } from "./tenant_origin.ts";
import { prismic as prismicKind } from "./providers/prismic.ts";

/** Options of createCachelyPrismicClient: Cachely's, plus any `@prismicio/client` option. */
export type CachelyPrismicClientOptions =
  & TenantTarget
  & Omit<prismic.ClientConfig, "fetch">
  & {
    /** The Prismic repository name. */
    repositoryName: string;
    /** A tracker (createCachelyExperimentTracker) capturing the assignments of answers. */
    experiments?: ExperimentCapture;
    /** Bypass the edge cache (adds the tenant's preview parameter). */
    preview?: boolean;
    previewParam?: string;
    /** AI transform profile for the API answers. */
    transform?: string;
    /** The tenant's API origin when it is not `https://<repo>.cdn.prismic.io/api/v2`. */
    apiOrigin?: string;
    /** The fetch underneath (default `globalThis.fetch`). */
    fetch?: typeof fetch;
  };

/** The original product's name for transformResponse on this CMS's asset URLs. */
export { transformPrismicAssetUrls } from "./legacy_transform.ts";

const FN = "createCachelyPrismicClient";

/**
 * The official client, wired through Cachely (`tenant`, or CACHELY_PROXY_URL); without either
 * it talks to Prismic directly with your `accessToken`. `client.cachelyFetch`: the fetch it
 * uses through Cachely, null when direct.
 */
export function createCachelyPrismicClient(
  options: CachelyPrismicClientOptions,
): prismic.Client & { cachelyFetch: CachelyFetch | null } {
  if (options === null || typeof options !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const {
    repositoryName,
    tenant,
    customDomain,
    proxyDomain,
    tenantOrigin,
    experiments,
    preview,
    previewParam,
    transform,
    apiOrigin,
    fetch: innerFetch,
    accessToken,
    ...clientConfig
  } = options;
  const target = targetOrEnv({ tenant, customDomain, proxyDomain, tenantOrigin });
  if (target === null) {
    // No tenant and CACHELY_PROXY_URL unset: the official client talks to Prismic itself.
    const client = prismic.createClient(repositoryName, {
      ...clientConfig,
      accessToken,
      ...(innerFetch ? { fetch: innerFetch as prismic.FetchLike } : {}),
    });
    return Object.assign(client, { cachelyFetch: null });
  }
  let cachelyFetch: CachelyFetch;
  try {
    cachelyFetch = createCachelyFetch({
      ...target,
      experiments,
      preview,
      previewParam,
      transform,
      apiOrigin,
      fetch: innerFetch,
      provider: { cms: prismicKind.kind, repository: repositoryName },
    });
  } catch (e) {
    throw new Error(
      (e as Error).message.replace("createCachelyFetch", FN).replace(
        "provider.repository",
        "repositoryName",
      ),
    );
  }
  const client = prismic.createClient(repositoryName, {
    ...clientConfig,
    fetch: cachelyFetch as prismic.FetchLike,
  });
  return Object.assign(client, { cachelyFetch });
}
