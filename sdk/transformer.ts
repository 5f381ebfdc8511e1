/**
 * The response transformer (SPEC "The image/video host integration"): rewrites
 * image/video host URLs inside JSON data to `{tenant_host}/image/upload/...` (the
 * form the edge serves), then runs the caller's `transformers` on the serialized
 * JSON and `postTransform` on the parsed result. It never breaks a page: on any
 * failure `onError` decides, or, when absent, a warning is logged and the
 * original data comes back unchanged.
 */
import { compileRewriter, type Rewriter, type SourceRule } from "./rewrite.ts";
import { DEFAULT_ASSET_ORIGIN } from "./url.ts";
import { PROVIDER_FIELDS, type ProviderConfig, providerSources } from "./providers.ts";

/** A text transformer: receives the serialized JSON and the tenant base, returns JSON text. */
export type TextTransformer = (json: string, base: string) => string;

export type TransformerOptions<T = unknown> = {
  /** The tenant host origin, e.g. `https://acme.cachely.example`. */
  base: string;
  /** Cloud name of an image-host tenant; without it only `assetHosts` are rewritten. */
  cloudName?: string;
  /** Extra functions run after the defaults, in order. */
  transformers?: TextTransformer[];
  /** Runs on the parsed result; its return value (when not undefined) is the result. */
  postTransform?: (data: T) => T | void;
  /** Decides what a failure returns; absent -> `console.warn` and the original data. */
  onError?: (error: unknown, original: T) => T | void;
  /** The image/video host origin (default `https://res.cloudinary.com`). */
  assetOrigin?: string;
  /** Legacy: other provider asset hosts served under `/~assets/<host>/` on the tenant host. */
  assetHosts?: string[];
  /**
   * The tenant's provider set-up (sdk/providers.ts): its URLs become the same
   * clean tenant URLs the server writes, e.g. `{ cms: "contentful", spaceId }`.
   */
  provider?: ProviderConfig;
  /** Raw rewrite rules (compileRewriter's), used when no `provider` is given. */
  sources?: SourceRule[];
};

function hostOf(origin: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}

/** Compiles the options once and returns `(data) => transformed data`. */
export function createResponseTransformer<T = unknown>(
  options: TransformerOptions<T>,
): (data: T) => T {
  let rewrite: Rewriter | null = null;
  let base = "";
  let setupError: unknown = null;
  try {
    base = options.base.replace(/\/+$/, "");
    if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(base)) {
      throw new TypeError(`Invalid base: ${options.base}`);
    }
    const host = hostOf(options.assetOrigin ?? DEFAULT_ASSET_ORIGIN);
    rewrite = compileRewriter({
      tenantOrigin: base,
      sources: options.provider
        ? providerSources(options.provider, { imageHostOrigin: options.assetOrigin })
        : options.sources,
      assetHosts: options.assetHosts,
      // The image host's own rules, unless the provider is the image host (its config has them).
      imageHost: options.cloudName &&
          !(options.provider && PROVIDER_FIELDS[options.provider.cms]?.includes("cloudName"))
        ? {
          host,
          cloudName: options.cloudName,
          privateHost: host.startsWith("res.") ? `${options.cloudName}-res.${host.slice(4)}` : null,
        }
        : undefined,
    });
  } catch (e) {
    setupError = e;
  }
  return (data: T): T => {
    try {
      if (setupError) throw setupError;
      let json = JSON.stringify(data);
      if (json === undefined) return data; // functions, undefined: nothing to rewrite
      json = rewrite!(json);
      for (const t of options.transformers ?? []) {
        const out = t(json, base);
        if (typeof out !== "string") throw new TypeError("A transformer must return a string");
        json = out;
      }
      let result = JSON.parse(json) as T;
      if (options.postTransform) {
        const post = options.postTransform(result);
        if (post !== undefined) result = post;
      }
      return result;
    } catch (error) {
      if (options.onError) {
        const replaced = options.onError(error, data);
        return replaced === undefined ? data : replaced;
      }
      console.warn("[cachely] response transform failed; returning the original data", error);
      return data;
    }
  };
}

/** One-shot form: `transformResponse(data, { base, cloudName })`. */
export function transformResponse<T>(data: T, options: TransformerOptions<T>): T {
  return createResponseTransformer(options)(data);
}
