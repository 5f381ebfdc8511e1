/**
 * The URL-rewriting core shared by the edge (lib/rewrite), the server-side
 * regenerate path and this package's response transformer and URL rewriter.
 *
 * Dependency-free on purpose: it runs unchanged in browsers, Deno and Node, and
 * the edge imports it from here (the reverse would pull server code into the SDK).
 *
 * Two URL families are rewritten (SPEC "What the service does" 1 and "The
 * image/video host integration"):
 * - image host: `{asset_host}/<cloud>/(image|video)/upload/…` and
 *   `<cloud>-res.<domain>/(image|video)/upload/…` → `{tenant}/(image|video)/upload/…`
 *   (or `{tenant}/<cloud>/(image|video)/upload/…` when `keepCloudName`);
 * - any other allow-listed asset host: `https://<host>/<path>` →
 *   `{tenant}/~assets/<host>/<path>` (the host-prefixed scheme, docs/decisions.md).
 *
 * Matches `http:`, `https:` and protocol-relative forms, and the `\/`-escaped
 * form JSON serialisers may emit; the replacement keeps the escaping style.
 */

/** Path prefix under which the edge serves allow-listed provider asset hosts. */
export const ASSET_PREFIX = "/~assets/";

/** What to rewrite and where to point it. */
export type RewriteRules = {
  /** Tenant origin without a trailing slash, e.g. `https://acme.cachely.example`. */
  tenantOrigin: string;
  /** Asset hosts (`host[:port]`) served under `/~assets/<host>/`. */
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

/** A compiled rewriter: text in, text out. */
export type Rewriter = (text: string) => string;

const IDENTITY: Rewriter = (text) => text;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** A `/` that may be written `\/` inside a JSON string. */
const SL = "\\\\?/";

/**
 * Compiles rules into one regular expression. Compile once per tenant and
 * reuse: the edge memoises compiled rewriters (lib/rewrite/mod.ts).
 */
export function compileRewriter(rules: RewriteRules): Rewriter {
  const tenant = rules.tenantOrigin.replace(/\/+$/, "");
  const alts: string[] = [];
  const img = rules.imageHost;
  if (img && img.cloudName) {
    // group 3: resource type via public host + cloud name; group 4: via private host
    alts.push(
      `${escapeRe(img.host.toLowerCase())}${SL}${
        escapeRe(img.cloudName)
      }${SL}(image|video)${SL}upload(?=\\\\?/)`,
    );
    if (img.privateHost) {
      alts.push(
        `${escapeRe(img.privateHost.toLowerCase())}${SL}(image|video)${SL}upload(?=\\\\?/)`,
      );
    } else {
      alts.push(`(?!)()`); // keeps group numbering stable
    }
  } else {
    alts.push(`(?!)()`, `(?!)()`);
  }
  const hosts = (rules.assetHosts ?? []).filter((h) => h.length > 0);
  if (hosts.length > 0) {
    // group 5: an allow-listed host, followed by the end of the authority
    alts.push(
      `(${hosts.map((h) => escapeRe(h.toLowerCase())).join("|")})(?=[/\\\\?#"'\\s)<>,;]|$)`,
    );
  }
  if (!img?.cloudName && hosts.length === 0) return IDENTITY;
  // Not preceded by something that makes this the middle of another URL or word.
  const re = new RegExp(
    `(?<![\\w.\\-/:\\\\@%])(https?:)?(${SL}${SL})(?:${alts.join("|")})`,
    "gi",
  );
  const cloudSeg = img?.keepCloudName ? `/${img.cloudName}` : "";
  return (text: string): string => {
    if (text.length === 0) return text;
    re.lastIndex = 0;
    return text.replace(
      re,
      (_m, _scheme, slashes: string, viaPublic?: string, viaPrivate?: string, host?: string) => {
        const escaped = slashes.includes("\\");
        let out: string;
        if (viaPublic || viaPrivate) {
          out = `${tenant}${cloudSeg}/${(viaPublic || viaPrivate)!.toLowerCase()}/upload`;
        } else {
          out = `${tenant}${ASSET_PREFIX}${host!.toLowerCase()}`;
        }
        return escaped ? out.replaceAll("/", "\\/") : out;
      },
    );
  };
}

/** One-shot form of compileRewriter (compile and apply). */
export function rewriteUrls(text: string, rules: RewriteRules): string {
  return compileRewriter(rules)(text);
}
