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
import type { Rewriter } from "./rewrite.ts";
import {
  asksVerifiedDomain,
  optionError,
  resolveTenantOrigin,
  type TenantTarget,
} from "./tenant_origin.ts";
import { LearntOrigin } from "./domain_lookup.ts";
import { PREVIEW_TOKEN_PARAM } from "./preview.ts";

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
  /**
   * An editor's preview-link token (sdk/preview.ts): drafts through the edge, never cached.
   * Server side only (Next.js draft mode, Nuxt preview): it opens drafts to whoever holds it.
   */
  previewToken?: string;
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
  /**
   * The tenant origin requests go to, e.g. `https://acme.cachely.app`. With `customDomain:
   * true` and no domain in the environment: the tenant host until the first request has
   * learnt the verified domain, then `https://<domain>`.
   */
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

/**
 * Creates the fetch wrapper. Every option is checked here (an Error names the bad one).
 */
// Long: about 35 lines of option checks, then the returned fetch is a closure over the checked
// values (proxied and the fetch itself are its inner functions).
export function createCachelyFetch(options: CachelyFetchOptions): CachelyFetch {
  if (options === null || typeof options !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const tenantHost = resolveTenantOrigin(FN, options);
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
  const inner = options.fetch ?? defaultFetch(tenantHost);
  if (typeof inner !== "function") throw optionError(FN, "fetch", "must be a function");
  const rewriteOff = options.rewriteAssets === false;
  const rewriters = new Map<CachelyProvider, Rewriter>();
  const origin = new LearntOrigin(tenantHost, asksVerifiedDomain(options), inner, rewriters);
  /** The asset rewriter of `p` (a provider derived from an API URL has its own). */
  const rewriterOf = (p: CachelyProvider): Rewriter | null => {
    if (rewriteOff) return null;
    let r = rewriters.get(p);
    if (!r) rewriters.set(p, r = p.rewriter(origin.current));
    return r;
  };
  /** The provider answers were last rewritten for (rewriteAssets() uses it). */
  let current = provider;
  const apisOf = (p: CachelyProvider) =>
    p.apiOrigins.map((o) => {
      const u = new URL(o);
      return { origin: u.origin, path: u.pathname.replace(/\/+$/, "") };
    });
  const apis = apisOf(provider);

  /** The proxied URL and the provider it belongs to, or null when it is not a CMS API call. */
  function proxied(raw: string): { url: URL; via: CachelyProvider } | null {
    let u: URL;
    // A relative or already proxied path: the API the last call named.
    let via = current;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(raw) && !raw.startsWith("//")) {
      // A relative path is an API path: "/entries" -> /~api/entries.
      u = new URL(`${origin.current}/~api/${raw.replace(/^\/+/, "")}`);
    } else {
      u = new URL(raw);
      if (
        origin.owns(u.origin) && (u.pathname === "/~api" || u.pathname.startsWith("/~api/"))
      ) {
        // already proxied
      } else {
        const derived = provider.fromApiUrl?.(u) ?? null;
        via = derived ?? provider;
        const api = (derived ? apisOf(derived) : apis).find((a) =>
          u.origin === a.origin &&
          (a.path === "" || u.pathname === a.path || u.pathname.startsWith(a.path + "/"))
        );
        if (!api) return null;
        const rest = u.pathname.slice(api.path.length);
        u = new URL(`${origin.current}/~api${rest.startsWith("/") ? "" : "/"}${rest}${u.search}`);
      }
    }
    for (const p of CREDENTIAL_PARAMS) u.searchParams.delete(p);
    if (options.preview) u.searchParams.set(previewParam, "1");
    if (options.previewToken) u.searchParams.set(PREVIEW_TOKEN_PARAM, options.previewToken);
    if (options.transform) u.searchParams.set("transform", String(options.transform));
    return { url: u, via };
  }

  const cachelyFetch = async function (
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> {
    await origin.ready();
    const isRequest = typeof Request !== "undefined" && input instanceof Request;
    const raw = isRequest ? (input as Request).url : String(input);
    const route = proxied(raw);
    const target = route?.url;
    if (route) current = route.via;
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
    const rewrite = rewriterOf(route?.via ?? current);
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

  return Object.assign(origin.exposedOn(cachelyFetch), {
    provider,
    proxyUrl: (url: string | URL) => proxied(String(url))?.url.toString() ?? String(url),
    rewriteAssets: (text: string) => rewriterOf(current)?.(text) ?? text,
  }) as CachelyFetch;
}

function isJson(res: Response): boolean {
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  return type.includes("application/json") || /\+json\b/.test(type);
}

/**
 * The fetch to use when none is given: `globalThis.fetch`, except outside browsers for a
 * `*.localhost` tenant origin, which Node and Deno do not resolve (browsers and curl send
 * such names to loopback): there requests connect to 127.0.0.1 with the tenant's Host.
 */
function defaultFetch(tenantOrigin: string): typeof fetch {
  const host = new URL(tenantOrigin).hostname;
  const browser = typeof (globalThis as { document?: unknown }).document !== "undefined";
  if (browser || !host.endsWith(".localhost")) return globalThis.fetch;
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof Request !== "undefined" && input instanceof Request
      ? input.url
      : String(input);
    return new URL(url).hostname.endsWith(".localhost")
      ? loopbackFetch(url, init)
      : globalThis.fetch(input, init);
  }) as typeof fetch;
}

/** What loopbackFetch uses of node:http. */
type NodeResponse = {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: string, f: (x: Uint8Array & Error) => void): void;
};
type NodeHttp = {
  request(
    opts: Record<string, unknown>,
    cb: (res: NodeResponse) => void,
  ): {
    on(e: "error", f: (e: Error) => void): void;
    write(b: string | Uint8Array): void;
    end(): void;
  };
};

/** A request to a `*.localhost` URL over node:http (Node and Deno) to 127.0.0.1, Host kept. */
async function loopbackFetch(url: string, init: RequestInit = {}): Promise<Response> {
  // A computed specifier: browser bundlers leave it alone, and no Node types are needed.
  const spec = "node:http";
  const http = (await import(spec)) as NodeHttp;
  const u = new URL(url);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => headers[k] = v);
  headers.host = u.host;
  const body = init.body == null
    ? undefined
    : typeof init.body === "string"
    ? init.body
    : new Uint8Array(await new Response(init.body).arrayBuffer());
  return await new Promise<Response>((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port: Number(u.port || 80),
      method: init.method ?? "GET",
      path: u.pathname + u.search,
      headers,
      signal: init.signal ?? undefined,
    }, (res: NodeResponse) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (c: Uint8Array) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
        }
        const status = res.statusCode ?? 502;
        const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) bytes.set(c, at), at += c.length;
        const empty = status === 204 || status === 304 || (init.method ?? "GET") === "HEAD";
        const r = new Response(empty ? null : bytes, { status, headers: out });
        Object.defineProperty(r, "url", { value: url });
        resolve(r);
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
