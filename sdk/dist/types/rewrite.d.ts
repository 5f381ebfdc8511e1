/**
 * The URL-rewriting core shared by the edge (lib/rewrite), the server-side
 * regenerate path and this package's response transformer and URL rewriter.
 *
 * Dependency-free on purpose: it runs unchanged in browsers, Deno and Node, and
 * the edge imports it from here (the reverse would pull server code into the SDK).
 *
 * Three URL families are rewritten (SPEC "What the service does" 1 and "The
 * image/video host integration"):
 * - provider source rules (`sources`, built by sdk/providers.ts from one
 *   identifier per CMS kind): `https://<host>/<fixed path prefix>/...` ->
 *   `{tenant}<clean prefix>/...`, the clean tenant URL;
 * - image host: `{asset_host}/<cloud>/(image|video)/upload/...` and
 *   `<cloud>-res.<domain>/(image|video)/upload/...` -> `{tenant}/(image|video)/upload/...`
 *   (or `{tenant}/<cloud>/(image|video)/upload/...` when `keepCloudName`);
 * - any other allow-listed asset host: `https://<host>/<path>` ->
 *   `{tenant}/~assets/<host>/<path>` (the host-prefixed scheme, docs/decisions.md).
 *
 * Matches `http:`, `https:` and protocol-relative forms, and the `\/`-escaped
 * form JSON serialisers may emit; the replacement keeps the escaping style.
 */
/** Path prefix under which the edge serves allow-listed provider asset hosts. */
export declare const ASSET_PREFIX = "/~assets/";
/** What to rewrite and where to point it. */
export type RewriteRules = {
    /** Tenant origin without a trailing slash, e.g. `https://acme.cachely.example`. */
    tenantOrigin: string;
    /** Provider URL forms rewritten to clean tenant URLs (sdk/providers.ts builds them). */
    sources?: readonly SourceRule[];
    /** Legacy: asset hosts (`host[:port]`) served under `/~assets/<host>/`. */
    assetHosts?: readonly string[];
    /** The image/video host of an image-host tenant. */
    imageHost?: {
        /** `host[:port]` of the public asset host, e.g. `res.cloudinary.com`. */
        host: string;
        cloudName: string;
        /** `<cloud>-res.<domain>`, or null when the asset host has no private form. */
        privateHost: string | null;
        /** Client-side form: keep the cloud name as the first path segment. */
        keepCloudName?: boolean;
    };
};
/**
 * One provider URL form: `<host>/<path>` followed by `/` is replaced by
 * `{tenant}<clean(matched)>`. `path` is a regular-expression source without
 * capturing groups in which a literal `/` stands for a slash that may also be
 * written `\/` (JSON); empty when the whole path after the host is kept.
 */
export type SourceRule = {
    /** `host[:port]`, lower case. */
    host: string;
    /** Path prefix pattern after the host, without the leading slash (may be ""). */
    path: string;
    /**
     * The tenant-host path prefix that replaces `<host>/<path>`: a string, or a
     * function of the matched `<host>/<path>` text (with `\/` read as `/`).
     */
    clean: string | ((matched: string) => string);
};
/** A compiled rewriter: text in, text out. */
export type Rewriter = (text: string) => string;
/**
 * Compiles rules into one regular expression. Compile once per tenant and
 * reuse: the edge memoises compiled rewriters (lib/rewrite/mod.ts).
 */
export declare function compileRewriter(rules: RewriteRules): Rewriter;
/** Escapes a literal for use inside a SourceRule path (keeps `/` as the slash marker). */
export declare function escapePathLiteral(s: string): string;
/** One-shot form of compileRewriter (compile and apply). */
export declare function rewriteUrls(text: string, rules: RewriteRules): string;
