/**
 * `@cachely/sdk/contentful`: the options to hand to the official `contentful`
 * client so that its calls go through the tenant's `/~api/` proxy (the delivery
 * token stays on the server) and the asset URLs it returns point at the tenant host.
 *
 * @example
 * ```ts
 * import { createClient } from "contentful";
 * import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";
 *
 * const client = createClient(createContentfulCachelyAdapter({ space: "abc123xyz", tenant: "acme" }));
 * const entries = await client.getEntries({ content_type: "post" });
 * ```
 *
 * @module
 */
import { type CachelyFetch, createCachelyFetch, type ExperimentCapture } from "./fetch.ts";
import { optionError, targetOrEnv, type TenantTarget } from "./tenant_origin.ts";
import { contentful } from "./providers/contentful.ts";

/** Options of createContentfulCachelyAdapter. */
export type ContentfulCachelyOptions = TenantTarget & {
  /** The Contentful space ID. */
  space: string;
  /**
   * Your Content Delivery token: used only when Cachely is not in the way (no `tenant`, and
   * `CACHELY_PROXY_URL` unset: straight to Contentful). Through Cachely it is never sent.
   */
  accessToken?: string;
  /** The environment (default `master`). */
  environment?: string;
  /** The tenant's API origin when it is not `https://cdn.contentful.com/spaces/<space>`. */
  apiOrigin?: string;
  preview?: boolean;
  previewParam?: string;
  transform?: string;
  experiments?: ExperimentCapture;
  fetch?: typeof fetch;
};

/** What to pass to `contentful.createClient` (spread it; add your own options beside). */
export type ContentfulClientOptions = {
  space: string;
  environment: string;
  /**
   * A placeholder: the client insists on one, Cachely strips it and injects the
   * tenant's stored token upstream, so no real token ships to the browser.
   */
  accessToken: string;
  /** Routes every call through Cachely (an axios adapter over createCachelyFetch); absent direct. */
  // deno-lint-ignore no-explicit-any -- axios's config type is not a dependency of the SDK
  adapter?: (config: any) => Promise<any>;
  /** The fetch the adapter uses (not enumerable); null when talking to Contentful directly. */
  readonly cachelyFetch: CachelyFetch | null;
};

/** The placeholder token sent by the client (stripped before it leaves the browser). */
export const CONTENTFUL_PLACEHOLDER_TOKEN = "cachely-proxy";

/** The original product's name for transformResponse on this CMS's asset URLs. */
export { transformContentfulAssetUrls } from "./legacy_transform.ts";

const FN = "createContentfulCachelyAdapter";

/** Builds the contentful client options; every option is checked now. */
export function createContentfulCachelyAdapter(
  options: ContentfulCachelyOptions,
): ContentfulClientOptions {
  if (options === null || typeof options !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const environment = options.environment ?? "master";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(environment)) {
    throw optionError(FN, "environment", `${JSON.stringify(environment)} is not an environment ID`);
  }
  const target = targetOrEnv(options);
  if (target === null) {
    // No tenant and CACHELY_PROXY_URL unset: the client talks to Contentful itself.
    if (typeof options.space !== "string" || !/^[a-z0-9]{4,64}$/i.test(options.space)) {
      throw optionError(FN, "space", `${JSON.stringify(options.space)} is not a space ID`);
    }
    if (typeof options.accessToken !== "string" || options.accessToken === "") {
      throw optionError(
        FN,
        "accessToken",
        "is required to reach Contentful directly (no tenant and CACHELY_PROXY_URL unset)",
      );
    }
    return Object.defineProperty(
      { space: options.space, environment, accessToken: options.accessToken },
      "cachelyFetch",
      { value: null, enumerable: false },
    ) as ContentfulClientOptions;
  }
  let cachelyFetch: CachelyFetch;
  try {
    const { accessToken: _never, ...rest } = options;
    cachelyFetch = createCachelyFetch({
      ...rest,
      ...target,
      provider: { cms: contentful.kind, spaceId: options.space },
    });
  } catch (e) {
    // The space is our `space` option, not `provider.spaceId`.
    throw new Error(
      (e as Error).message.replace("createCachelyFetch", FN).replace("provider.spaceId", "space"),
    );
  }
  // No `host`/`basePath`: the client would build tenant URLs the adapter cannot tell
  // from others. It keeps Contentful's URLs and the adapter sends them via /~api/.
  const out = {
    space: options.space,
    environment,
    accessToken: CONTENTFUL_PLACEHOLDER_TOKEN,
    adapter: axiosAdapter(cachelyFetch),
  };
  return Object.defineProperty(out, "cachelyFetch", {
    value: cachelyFetch,
    enumerable: false,
  }) as ContentfulClientOptions;
}

// deno-lint-ignore no-explicit-any
type AxiosConfig = any;

/** An axios adapter (the transport the contentful client uses) over a fetch. */
function axiosAdapter(f: typeof fetch) {
  return async (config: AxiosConfig) => {
    const url = new URL(joinUrl(config.baseURL, config.url));
    const params = config.params ?? {};
    const serialize = config.paramsSerializer?.serialize ??
      (typeof config.paramsSerializer === "function" ? config.paramsSerializer : null);
    const qs: string = serialize ? serialize(params) : plainQuery(params);
    if (qs) url.search += (url.search ? "&" : "") + qs;
    const headers = new Headers();
    const raw = typeof config.headers?.toJSON === "function"
      ? config.headers.toJSON()
      : config.headers;
    for (const [k, v] of Object.entries(raw ?? {})) {
      if (v !== undefined && v !== null && typeof v !== "object") headers.set(k, String(v));
    }
    const method = String(config.method ?? "get").toUpperCase();
    const res = await f(url.toString(), {
      method,
      headers,
      body: method === "GET" || method === "HEAD" ? undefined : config.data,
      signal: config.signal,
    });
    const text = await res.text();
    let data: unknown = text;
    if (config.responseType === undefined || config.responseType === "json") {
      try {
        data = text ? JSON.parse(text) : null;
      } catch { /* keep the text */ }
    }
    const response = {
      data,
      status: res.status,
      statusText: res.statusText,
      headers: Object.fromEntries(res.headers),
      config,
      request: { responseURL: url.toString() },
    };
    const ok = config.validateStatus ? config.validateStatus(res.status) : res.ok;
    if (ok) return response;
    // The shape contentful's error handler reads (axios's AxiosError).
    const err = new Error(`Request failed with status code ${res.status}`) as Error & {
      isAxiosError: boolean;
      response: typeof response;
      config: AxiosConfig;
      code: string;
    };
    err.isAxiosError = true;
    err.response = response;
    err.config = config;
    err.code = res.status >= 500 ? "ERR_BAD_RESPONSE" : "ERR_BAD_REQUEST";
    throw err;
  };
}

function joinUrl(base: string | undefined, path: string | undefined): string {
  const p = path ?? "";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p) || !base) return p;
  return base.replace(/\/+$/, "") + "/" + p.replace(/^\/+/, "");
}

function plainQuery(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    q.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  return q.toString();
}
