/**
 * The client-side URL rewriter (SPEC "The image/video host integration"): an
 * image/video host URL of the tenant's cloud becomes a tenant-host URL that
 * keeps the cloud name as its first path segment,
 * `{tenant_host}/<cloud_name>/image/upload/...`. Other URLs are returned unchanged.
 */
import { compileRewriter, type Rewriter } from "./rewrite.ts";

/** The public image/video host origin. */
export const DEFAULT_ASSET_ORIGIN = "https://res.cloudinary.com";

export type UrlRewriterOptions = {
  /** The tenant host origin, e.g. `https://acme.cachely.example`. */
  base: string;
  cloudName: string;
  /** The asset host origin (default `https://res.cloudinary.com`). */
  assetOrigin?: string;
};

/** `res.example.com` -> `<cloud>-res.example.com` (the private distribution host). */
function privateHost(host: string, cloudName: string): string | null {
  return host.startsWith("res.") ? `${cloudName}-res.${host.slice(4)}` : null;
}

function hostOf(origin: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}

/** Compiles a rewriter for one tenant; reuse it for many URLs or whole texts. */
export function createUrlRewriter(opts: UrlRewriterOptions): Rewriter {
  const host = hostOf(opts.assetOrigin ?? DEFAULT_ASSET_ORIGIN);
  return compileRewriter({
    tenantOrigin: opts.base,
    imageHost: {
      host,
      cloudName: opts.cloudName,
      privateHost: privateHost(host, opts.cloudName),
      keepCloudName: true,
    },
  });
}

/** Rewrites one URL (or any text containing such URLs). */
export function rewriteUrl(url: string, opts: UrlRewriterOptions): string {
  return createUrlRewriter(opts)(url);
}
