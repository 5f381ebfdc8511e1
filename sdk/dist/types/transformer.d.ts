/**
 * The response transformer (SPEC "The image/video host integration"): rewrites
 * image/video host URLs inside JSON data to `{tenant_host}/image/upload/...` (the
 * form the edge serves), then runs the caller's `transformers` on the serialized
 * JSON and `postTransform` on the parsed result. It never breaks a page: on any
 * failure `onError` decides, or, when absent, a warning is logged and the
 * original data comes back unchanged.
 */
import { type SourceRule } from "./rewrite.js";
import { type ProviderConfig } from "./providers.js";
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
/** Compiles the options once and returns `(data) => transformed data`. */
export declare function createResponseTransformer<T = unknown>(options: TransformerOptions<T>): (data: T) => T;
/** One-shot form: `transformResponse(data, { base, cloudName })`. */
export declare function transformResponse<T>(data: T, options: TransformerOptions<T>): T;
