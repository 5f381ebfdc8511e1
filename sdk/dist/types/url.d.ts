/**
 * The client-side URL rewriter (SPEC "The image/video host integration"): an
 * image/video host URL of the tenant's cloud becomes a tenant-host URL that
 * keeps the cloud name as its first path segment,
 * `{tenant_host}/<cloud_name>/image/upload/...`. Other URLs are returned unchanged.
 */
import { type Rewriter } from "./rewrite.js";
/** The public image/video host origin. */
export declare const DEFAULT_ASSET_ORIGIN = "https://res.cloudinary.com";
export type UrlRewriterOptions = {
    /** The tenant host origin, e.g. `https://acme.cachely.example`. */
    base: string;
    cloudName: string;
    /** The asset host origin (default `https://res.cloudinary.com`). */
    assetOrigin?: string;
};
/** Compiles a rewriter for one tenant; reuse it for many URLs or whole texts. */
export declare function createUrlRewriter(opts: UrlRewriterOptions): Rewriter;
/** Rewrites one URL (or any text containing such URLs). */
export declare function rewriteUrl(url: string, opts: UrlRewriterOptions): string;
