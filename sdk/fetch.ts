/**
 * createCachelyFetch: a `fetch`-compatible function that sends a CMS's API calls
 * through the tenant's `/~api/` proxy (the credentials stay on the server), rewrites
 * provider asset URLs in JSON answers to the tenant host, passes the preview and
 * transform parameters, and hands every answer to the experiment tracker.
 *
 * Network failures are not wrapped: they reject exactly as the underlying `fetch`.
 */
import type { ProviderEnv } from "./providers.ts";
import { type CachelyProvider, type ProviderInput, resolveProvider } from "./provider_registry.ts";
import { optionError, resolveTenantOrigin, type TenantTarget } from "./tenant_origin.ts";

/** The tracker side of experiments: anything with captureFromResponse (createTracker's). */
export type ExperimentCapture = { captureFromResponse(response: Response): unknown };

/** Options of createCachelyFetch. */
export type CachelyFetchOptions = TenantTarget & {
  /** The CMS: a kind name, its config (`{ cms: "contentful", spaceId }`), or a provider object. */
  provider: ProviderInput;
  /**
   * The tenant's API origin when it is not the provider's derived one (what you set as
   * `apiOrigin` on the tenant). Requests under it go through `/~api/`.
   */
  apiOrigin?: string;
  /** Bypass the edge cache (draft content): adds the preview parameter to proxied calls. */
  preview?: boolean;
  /** The tenant's preview parameter name (default `preview`). */
  previewParam?: string;
  /** AI transform profile: adds `?transform=<profile>` to proxied calls. */
  transform?: string;
  /** A tracker (createTracker / createCachelyExperimentTracker) to capture assignments. */
  experiments?: ExperimentCapture;
  /** Rewrite provider asset URLs in JSON answers (default true). */
  rewriteAssets?: boolean;
  /** The fetch to wrap (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Image host origins, for a self-hosted image host (cloudinary kind). */
  env?: ProviderEnv;
};

/** The function createCachelyFetch returns: `fetch` plus what it was built from. */
export type CachelyFetch = typeof fetch & {
  /** The tenant origin requests go to, e.g. `https://acme.cachely.app`. */
  readonly tenantOrigin: string;
  readonly provider: CachelyProvider;
  /** The URL a request to `url` is sent to (unchanged when it is not proxied). */
  proxyUrl(url: string | URL): string;
  /** Rewrites provider asset URLs in a text (JSON, HTML) to clean tenant URLs. */
  rewriteAssets(text: string): string;
};

const FN = "createCachelyFetch";
const PROFILE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
const PARAM_RE = /^[A-Za-z0-9_.-]{1,64}$/;
/** Query parameters that carry a CMS credential: never sent from the browser. */
const CREDENTIAL_PARAMS = ["access_token", "token"];

/** Creates the fetch wrapper. Every option is checked here (an Error names the bad one). */
export function createCachelyFetch(options: CachelyFetchOptions): CachelyFetch {
  if (options === null || typeof options !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const tenantOrigin = resolveTenantOrigin(FN, options);
  if (options.provider === undefined) throw optionError(FN, "provider", "is required");
  const provider = resolveProvider(options.provider, {
    fn: FN,
    env: options.env,
    apiOrigin: options.apiOrigin,
  });
  const previewParam = options.previewParam ?? "preview";
  if (!PARAM_RE.test(previewParam)) {
    throw optionError(
      FN,
      "previewParam",
      `${JSON.stringify(previewParam)} is not a parameter name`,
    );
  }
  if (options.transform !== undefined && !PROFILE_RE.test(String(options.transform))) {
    throw optionError(
      FN,
      "transform",
      `${JSON.stringify(options.transform)} is not a profile name`,
    );
  }
  const capture = options.experiments;
  if (capture !== undefined && typeof capture?.captureFromResponse !== "function") {
    throw optionError(FN, "experiments", "must be a tracker (with captureFromResponse)");
  }
  const inner = options.fetch ?? globalThis.fetch;
  if (typeof inner !== "function") throw optionError(FN, "fetch", "must be a function");
  const rewrite = options.rewriteAssets === false ? null : provider.rewriter(tenantOrigin);
  const proxyBase = `${tenantOrigin}/~api`;
  const api = provider.apiOrigin ? new URL(provider.apiOrigin) : null;
  const apiPath = api ? api.pathname.replace(/\/+$/, "") : "";

  /** The proxied URL, or null when the request is not for the CMS API. */
  function proxied(raw: string): URL | null {
    let u: URL;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(raw) && !raw.startsWith("//")) {
      // A relative path is an API path: "/entries" → /~api/entries.
      u = new URL(`${proxyBase}/${raw.replace(/^\/+/, "")}`);
    } else {
      u = new URL(raw);
      if (
        u.origin === tenantOrigin && (u.pathname === "/~api" || u.pathname.startsWith("/~api/"))
      ) {
        // already proxied
      } else if (
        api && u.origin === api.origin &&
        (u.pathname === apiPath || u.pathname.startsWith(apiPath + "/") || apiPath === "")
      ) {
        const rest = u.pathname.slice(apiPath.length);
        u = new URL(`${proxyBase}${rest.startsWith("/") ? rest : "/" + rest}${u.search}`);
      } else {
        return null;
      }
    }
    for (const p of CREDENTIAL_PARAMS) u.searchParams.delete(p);
    if (options.preview) u.searchParams.set(previewParam, "1");
    if (options.transform) u.searchParams.set("transform", String(options.transform));
    return u;
  }

  const cachelyFetch = async function (
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> {
    const isRequest = typeof Request !== "undefined" && input instanceof Request;
    const raw = isRequest ? (input as Request).url : String(input);
    const target = proxied(raw);
    let res: Response;
    if (target) {
      const headers = new Headers(
        init?.headers ?? (isRequest ? (input as Request).headers : undefined),
      );
      // No credentials from the browser: the edge injects the tenant's stored token.
      headers.delete("authorization");
      res = isRequest
        ? await inner(
          new Request(target.toString(), new Request(input as Request, { ...init, headers })),
        )
        : await inner(target.toString(), { ...init, headers });
    } else {
      res = await inner(input, init);
    }
    if (capture) {
      try {
        capture.captureFromResponse(res);
      } catch { /* the tracker never breaks a request */ }
    }
    if (!rewrite || !res.body || !isJson(res)) return res;
    const text = await res.text();
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    const out = new Response(rewrite(text), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
    // Keep `url` and `redirected` readable for clients that look at them.
    Object.defineProperty(out, "url", { value: res.url });
    Object.defineProperty(out, "redirected", { value: res.redirected });
    return out;
  };

  return Object.assign(cachelyFetch, {
    tenantOrigin,
    provider,
    proxyUrl: (url: string | URL) => proxied(String(url))?.toString() ?? String(url),
    rewriteAssets: (text: string) => (rewrite ? rewrite(text) : text),
  }) as CachelyFetch;
}

function isJson(res: Response): boolean {
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  return type.includes("application/json") || /\+json\b/.test(type);
}
