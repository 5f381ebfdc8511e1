/**
 * The provider rule set: ONE definition, shared by the edge, the management app
 * and this SDK, of
 * - which identifier each CMS / media kind needs (`validateProviderConfig`),
 * - which origins follow from it (`deriveOrigins`),
 * - which provider URL forms in bodies become which clean tenant URL
 *   (`providerSources`, compiled by `createProviderRewriter`),
 * - where a clean tenant path is fetched upstream and what happens to its query
 *   (`compileProviderRoutes`).
 *
 * Dependency-free: it runs unchanged in browsers, Deno and Node. The table of
 * type routing and query handling is docs/providers.md.
 *
 * @example
 * ```ts
 * const cfg = { cms: "contentful", spaceId: "abc123xyz" } as const;
 * const rewrite = createProviderRewriter(cfg, { tenantOrigin: "https://acme.cachely.example" });
 * rewrite("https://images.ctfassets.net/abc123xyz/id/tok/cat.jpg?w=400");
 * // → "https://acme.cachely.example/id/tok/cat.jpg?w=400"
 * ```
 *
 * @module
 */
import { compileRewriter, escapePathLiteral, type Rewriter, type SourceRule } from "./rewrite.ts";

/** Every CMS / media kind a tenant can be created with. */
export const PROVIDER_KINDS = [
  "contentful",
  "prismic",
  "sanity",
  "shopify",
  "cloudinary",
  "imgix",
  "storyblok",
  "generic",
] as const;
export type ProviderKind = typeof PROVIDER_KINDS[number];

/** Storyblok regions (`region`); absent means the EU default. */
export const STORYBLOK_REGIONS = ["eu", "us", "ap", "ca", "cn"] as const;
export type StoryblokRegion = typeof STORYBLOK_REGIONS[number];

/**
 * A tenant's provider set-up: its kind plus the one identifier that kind needs.
 * Fields that do not belong to the kind are ignored.
 */
export type ProviderConfig = {
  cms: ProviderKind;
  /** contentful: the space ID. */
  spaceId?: string | null;
  /** prismic: the repository name. */
  repository?: string | null;
  /** sanity: the project ID. */
  projectId?: string | null;
  /** sanity: the dataset (default `production`). */
  dataset?: string | null;
  /** shopify: `x.myshopify.com` or the store's own domain. */
  storeDomain?: string | null;
  /** cloudinary: the cloud name. */
  cloudName?: string | null;
  /** imgix: `x.imgix.net` or a custom source domain. */
  imgixDomain?: string | null;
  /** storyblok: the space region (default `eu`). */
  region?: StoryblokRegion | null;
  /** generic: the HTTPS origin (S3, R2, GCS, …), optionally with a base path. */
  originUrl?: string | null;
  /** generic: optional origin for video files. */
  videoOrigin?: string | null;
};

/** Where things of other providers live; only the image host is configurable. */
export type ProviderEnv = {
  /** The image/video host origin (default `https://res.cloudinary.com`). */
  imageHostOrigin?: string;
  /** The image/video host API origin (default `https://api.cloudinary.com`). */
  imageHostApiOrigin?: string;
};

const DEFAULT_IMAGE_HOST = "https://res.cloudinary.com";
const DEFAULT_IMAGE_API = "https://api.cloudinary.com";

// ---------------------------------------------------------------- validation

const HOSTNAME_RE =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Per field: the pattern an identifier must match, and what to say when it does not. */
export const IDENTIFIER_RULES: Record<
  "spaceId" | "repository" | "projectId" | "dataset" | "storeDomain" | "cloudName" | "imgixDomain",
  { re: RegExp; message: string }
> = {
  spaceId: { re: /^[a-z0-9]{4,64}$/, message: "must be a Contentful space ID (4-64 of a-z, 0-9)" },
  repository: {
    re: /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    message: "must be a Prismic repository name (a-z, 0-9 and -)",
  },
  projectId: { re: /^[a-z0-9]{1,64}$/, message: "must be a Sanity project ID (a-z, 0-9)" },
  dataset: {
    re: /^[a-z0-9][a-z0-9_-]{0,63}$/,
    message: "must be a Sanity dataset name (a-z, 0-9, _ and -)",
  },
  storeDomain: { re: HOSTNAME_RE, message: "must be a store domain such as shop.myshopify.com" },
  cloudName: { re: /^[A-Za-z0-9_-]{1,64}$/, message: "must be 1-64 of letters, digits, _ and -" },
  imgixDomain: { re: HOSTNAME_RE, message: "must be an imgix source domain such as x.imgix.net" },
};

/** A problem with one field of a provider config (the server answers 400 naming it). */
export type ProviderProblem = { field: string; message: string };

/** True for a hostname such as `www.example.com` (lower case, at least one dot). */
export function isHostname(value: string): boolean {
  return HOSTNAME_RE.test(value);
}

/**
 * The identifier field(s) each kind requires. contentful, prismic and sanity
 * tenants created before identifiers existed have none and keep the legacy
 * `/~assets/<host>/` scheme (docs/providers.md), so only the kinds that cannot
 * work without one require it.
 */
export const REQUIRED_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]> = {
  contentful: [],
  prismic: [],
  sanity: [],
  shopify: ["storeDomain"],
  cloudinary: ["cloudName"],
  imgix: ["imgixDomain"],
  storyblok: [],
  generic: [],
};

/** The identifier fields that belong to each kind (the dashboard asks for these). */
export const PROVIDER_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]> = {
  contentful: ["spaceId"],
  prismic: ["repository"],
  sanity: ["projectId", "dataset"],
  shopify: ["storeDomain"],
  cloudinary: ["cloudName"],
  imgix: ["imgixDomain"],
  storyblok: ["region"],
  generic: ["originUrl", "videoOrigin"],
};

/**
 * `http(s)://host[:port][/base]`, no query, fragment or credentials; else null. http only
 * where the server allows private upstreams (ALLOW_PRIVATE_UPSTREAMS; a self-hoster's MinIO).
 */
export function parseOrigin(
  value: string,
): { scheme: "http" | "https"; host: string; base: string } | null {
  const m = /^(https?):\/\/([a-z0-9.-]+(?::\d{1,5})?)(\/[^?#\s]*)?$/i.exec(value.trim());
  if (!m) return null;
  const host = m[2].toLowerCase();
  const base = (m[3] ?? "").replace(/\/+$/, "");
  if (base.split("/").some((s, i) => i > 0 && (s === "" || s === "." || s === ".."))) return null;
  if (/%2f|%5c|\\/i.test(base)) return null;
  return { scheme: m[1].toLowerCase() as "http" | "https", host, base };
}

/** `https://host[:port][/base]`, no query, fragment or credentials; else null. */
export function parseHttpsOrigin(value: string): { host: string; base: string } | null {
  const o = parseOrigin(value);
  return o?.scheme === "https" ? o : null;
}

/** The origin URL of a parsed origin. */
const originUrl = (o: { scheme: string; host: string; base: string }) =>
  `${o.scheme}://${o.host}${o.base}`;

/**
 * Checks the identifier fields of a config: the first problem, or null. Fields
 * the kind requires must be present; fields of other kinds are ignored. `allowHttp`:
 * http origins pass too (a server with ALLOW_PRIVATE_UPSTREAMS).
 */
export function validateProviderConfig(
  cfg: ProviderConfig,
  opts: { allowHttp?: boolean } = {},
): ProviderProblem | null {
  for (const f of REQUIRED_FIELDS[cfg.cms]) {
    if (!cfg[f]) return { field: f, message: `is required for ${cfg.cms}` };
  }
  for (const f of PROVIDER_FIELDS[cfg.cms]) {
    const v = cfg[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") return { field: f, message: "must be a string" };
    if (f === "region") {
      if (!(STORYBLOK_REGIONS as readonly string[]).includes(v)) {
        return { field: f, message: `must be one of ${STORYBLOK_REGIONS.join(", ")}` };
      }
    } else if (f === "originUrl" || f === "videoOrigin") {
      if (!(opts.allowHttp ? parseOrigin(v) : parseHttpsOrigin(v))) {
        return {
          field: f,
          message: opts.allowHttp
            ? "must be an http:// or https:// origin without query or fragment"
            : "must be an https:// origin without query or fragment",
        };
      }
    } else {
      const rule = IDENTIFIER_RULES[f as keyof typeof IDENTIFIER_RULES];
      if (rule && !rule.re.test(v)) return { field: f, message: rule.message };
    }
  }
  return null;
}

// ------------------------------------------------------------- file classes

/** What a file is, by extension: decides the origin (docs/providers.md). */
export type FileClass = "image" | "video" | "audio" | "document" | "font" | "other";

const CLASS_BY_EXT: Record<string, FileClass> = {};
for (const e of "jpg jpeg png webp avif gif svg bmp ico tif tiff heic heif jxl".split(" ")) {
  CLASS_BY_EXT[e] = "image";
}
for (const e of "mp4 webm mov m4v ogv mkv m3u8 mpd".split(" ")) CLASS_BY_EXT[e] = "video";
for (const e of "mp3 wav ogg oga m4a aac flac opus weba".split(" ")) CLASS_BY_EXT[e] = "audio";
for (const e of "woff woff2 ttf otf eot".split(" ")) CLASS_BY_EXT[e] = "font";
CLASS_BY_EXT.pdf = "document";

/** The class of a path by its last extension (`/a/b/cat.JPG` → image). */
export function fileClassOf(path: string): FileClass {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash) return "other";
  return CLASS_BY_EXT[path.slice(dot + 1).toLowerCase()] ?? "other";
}

// ------------------------------------------------------------------ origins

/** One asset origin of a provider, as shown to the user. */
export type DerivedOrigin = {
  /** What it serves: images, videos, files, … */
  role: string;
  /** `https://host[/base]`, no trailing slash. */
  url: string;
};

/** The origins a config implies: API origin (null when none) and asset origins. */
export type DerivedOrigins = { api: string | null; assets: DerivedOrigin[] };

const STORYBLOK_HOSTS: Record<StoryblokRegion, { assets: string; api: string }> = {
  eu: { assets: "a.storyblok.com", api: "https://api.storyblok.com/v2/cdn" },
  us: { assets: "a-us.storyblok.com", api: "https://api-us.storyblok.com/v2/cdn" },
  ap: { assets: "a-ap.storyblok.com", api: "https://api-ap.storyblok.com/v2/cdn" },
  ca: { assets: "a-ca.storyblok.com", api: "https://api-ca.storyblok.com/v2/cdn" },
  cn: { assets: "a.storyblokchina.cn", api: "https://app.storyblokchina.cn/v2/cdn" },
};

/**
 * Derives API and asset origins from the identifier (the table in
 * docs/providers.md). Without the identifier a kind derives nothing.
 */
export function deriveOrigins(cfg: ProviderConfig, env: ProviderEnv = {}): DerivedOrigins {
  switch (cfg.cms) {
    case "contentful": {
      const s = cfg.spaceId;
      if (!s) return { api: null, assets: [] };
      return {
        api: `https://cdn.contentful.com/spaces/${s}`,
        assets: [
          { role: "images", url: `https://images.ctfassets.net/${s}` },
          { role: "videos", url: `https://videos.ctfassets.net/${s}` },
          { role: "assets", url: `https://assets.ctfassets.net/${s}` },
          { role: "downloads", url: `https://downloads.ctfassets.net/${s}` },
        ],
      };
    }
    case "prismic": {
      const r = cfg.repository;
      if (!r) return { api: null, assets: [] };
      return {
        api: `https://${r}.cdn.prismic.io/api/v2`,
        assets: [
          { role: "images", url: `https://images.prismic.io/${r}` },
          { role: "files", url: `https://${r}.cdn.prismic.io/${r}` },
        ],
      };
    }
    case "sanity": {
      const p = cfg.projectId;
      if (!p) return { api: null, assets: [] };
      const d = cfg.dataset || "production";
      return {
        api: `https://${p}.apicdn.sanity.io`,
        assets: [
          { role: "images", url: `https://cdn.sanity.io/images/${p}/${d}` },
          { role: "files", url: `https://cdn.sanity.io/files/${p}/${d}` },
        ],
      };
    }
    case "shopify": {
      const st = cfg.storeDomain;
      if (!st) return { api: null, assets: [] };
      return {
        api: `https://${st}/api`,
        assets: [{ role: "store files", url: `https://${st}/cdn/shop` }],
      };
    }
    case "cloudinary": {
      const c = cfg.cloudName;
      if (!c) return { api: null, assets: [] };
      const host = (env.imageHostOrigin ?? DEFAULT_IMAGE_HOST).replace(/\/+$/, "");
      return {
        api: `${(env.imageHostApiOrigin ?? DEFAULT_IMAGE_API).replace(/\/+$/, "")}/v1_1/${c}`,
        assets: [
          { role: "images", url: `${host}/${c}` },
          { role: "videos", url: `${host}/${c}` },
        ],
      };
    }
    case "imgix":
      return cfg.imgixDomain
        ? { api: null, assets: [{ role: "source", url: `https://${cfg.imgixDomain}` }] }
        : { api: null, assets: [] };
    case "storyblok": {
      const h = STORYBLOK_HOSTS[cfg.region ?? "eu"] ?? STORYBLOK_HOSTS.eu;
      return { api: h.api, assets: [{ role: "assets", url: `https://${h.assets}` }] };
    }
    case "generic": {
      const assets: DerivedOrigin[] = [];
      const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
      if (o) assets.push({ role: "origin", url: originUrl(o) });
      const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
      if (v) assets.push({ role: "videos", url: originUrl(v) });
      return { api: null, assets };
    }
  }
}

// --------------------------------------------------------- source → clean URL

/** Options for the rewriter. */
export type ProviderRewriterOptions = {
  /** The tenant host origin, e.g. `https://acme.cachely.example`. */
  tenantOrigin: string;
  env?: ProviderEnv;
  /**
   * Image host only: keep the cloud name as the first path segment (the
   * client-side rewriter's form, SPEC). The edge serves both forms.
   */
  keepCloudName?: boolean;
};

const lit = escapePathLiteral;

/**
 * The provider URL forms of a config and the clean prefix each becomes. Empty
 * when the kind has no identifier yet (then nothing is rewritten this way).
 */
// Long: one switch over the provider kinds, one short case (under 15 lines) per CMS's asset hosts;
// it is a table, read by kind.
export function providerSources(
  cfg: ProviderConfig,
  env: ProviderEnv = {},
  keepCloudName = false,
): SourceRule[] {
  switch (cfg.cms) {
    case "contentful": {
      const s = cfg.spaceId;
      if (!s) return [];
      return ["images", "videos", "assets", "downloads"].map((sub) => ({
        host: `${sub}.ctfassets.net`,
        path: lit(s),
        clean: "",
      }));
    }
    case "prismic": {
      const r = cfg.repository;
      if (!r) return [];
      const keep = `/${r}`;
      return [
        { host: "images.prismic.io", path: lit(r), clean: keep },
        { host: `${r}.cdn.prismic.io`, path: lit(r), clean: keep },
        { host: "prismic-io.imgix.net", path: lit(r), clean: keep },
        { host: "prismic-io.s3.amazonaws.com", path: lit(r), clean: keep },
      ];
    }
    case "sanity": {
      const p = cfg.projectId;
      if (!p) return [];
      const d = cfg.dataset || "production";
      return [
        { host: "cdn.sanity.io", path: `images/${lit(p)}/${lit(d)}`, clean: "" },
        { host: "cdn.sanity.io", path: `files/${lit(p)}/${lit(d)}`, clean: "" },
      ];
    }
    case "shopify": {
      const st = cfg.storeDomain;
      if (!st) return [];
      return [
        { host: st, path: "cdn/shop", clean: "/cdn/shop" },
        { host: "cdn.shopify.com", path: "s/files(?:/\\d+)+", clean: "/cdn/shop" },
        { host: "cdn.shopify.com", path: "videos", clean: "/cdn/shop/videos" },
      ];
    }
    case "cloudinary": {
      const c = cfg.cloudName;
      if (!c) return [];
      const host = hostOf(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST);
      const seg = keepCloudName ? `/${c}` : "";
      const clean = (m: string) =>
        `${seg}/${/\/video\/upload$/i.test(m) ? "video" : "image"}/upload`;
      const out: SourceRule[] = [
        { host, path: `${lit(c)}/(?:image|video)/upload`, clean },
      ];
      if (host.startsWith("res.")) {
        out.push({ host: `${c}-res.${host.slice(4)}`, path: "(?:image|video)/upload", clean });
      }
      return out;
    }
    case "imgix":
      return cfg.imgixDomain ? [{ host: cfg.imgixDomain, path: "", clean: "" }] : [];
    case "storyblok": {
      const h = STORYBLOK_HOSTS[cfg.region ?? "eu"] ?? STORYBLOK_HOSTS.eu;
      return [{ host: h.assets, path: "", clean: "" }];
    }
    case "generic": {
      const out: SourceRule[] = [];
      for (const raw of [cfg.videoOrigin, cfg.originUrl]) {
        const o = raw ? parseOrigin(raw) : null;
        if (o) {
          out.push({
            host: o.host,
            path: o.base.split("/").slice(1).map(lit).join("/"),
            clean: "",
          });
        }
      }
      return out;
    }
  }
}

/**
 * Compiles the rewriter that turns every provider URL of the config (http,
 * https, protocol-relative, `\/`-escaped in JSON, inside rich text and HTML) into
 * its clean tenant URL. Compile once, apply to many texts.
 */
export function createProviderRewriter(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): Rewriter {
  return compileRewriter({
    tenantOrigin: opts.tenantOrigin,
    sources: providerSources(cfg, opts.env, opts.keepCloudName),
  });
}

/** One-shot: the clean tenant URL for one provider URL (unchanged when it is not one). */
export function cleanUrlFor(
  cfg: ProviderConfig,
  sourceUrl: string,
  opts: ProviderRewriterOptions,
): string {
  return createProviderRewriter(cfg, opts)(sourceUrl);
}

// --------------------------------------------------------- clean path → upstream

/** What the query of a clean URL does upstream and in the cache key. */
export type QueryPolicy =
  /** sorted, tracking and preview parameters dropped, forwarded and in the key */
  | "keep"
  /** dropped from the key and from the upstream request */
  | "drop";

/** Where a clean tenant path is fetched. */
export type UpstreamTarget = {
  /** `https://host[/base]` without a trailing slash. */
  origin: string;
  /** Path appended to origin, starting with `/`. */
  path: string;
  query: QueryPolicy;
  /** Which derived origin serves it (for docs and tests). */
  role: string;
};

/** A compiled router of clean tenant paths, built once per config. */
export type ProviderRoutes = {
  /**
   * The upstream of a clean path, or null when it is not an asset path of this
   * provider. `strict` accepts only paths with the provider's recognisable
   * shape (used beside a site proxy, where any other path is the website's).
   */
  route(path: string, strict?: boolean): UpstreamTarget | null;
};

const NONE: ProviderRoutes = { route: () => null };

function hostOf(origin: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}

/** Segments of a path after the leading `/` (`/a/b` → ["a", "b"]). */
function segments(path: string): string[] {
  return path.slice(1).split("/");
}

type RouteCompiler = (cfg: ProviderConfig, env: ProviderEnv) => ProviderRoutes;

/** Contentful: `/<asset id>/<token>/<file name>`, split by file class over its three hosts. */
function contentfulRoutes(cfg: ProviderConfig): ProviderRoutes {
  const s = cfg.spaceId;
  if (!s) return NONE;
  return {
    route(path) {
      const segs = segments(path);
      if (segs.length < 3 || segs[segs.length - 1] === "") return null;
      const cls = fileClassOf(path);
      if (cls === "image") {
        return { origin: `https://images.ctfassets.net/${s}`, path, query: "keep", role: "images" };
      }
      if (cls === "video") {
        return { origin: `https://videos.ctfassets.net/${s}`, path, query: "drop", role: "videos" };
      }
      return { origin: `https://assets.ctfassets.net/${s}`, path, query: "drop", role: "assets" };
    },
  };
}

/** Prismic: `/<repository>/…`; images from images.prismic.io, other files from the repo CDN. */
function prismicRoutes(cfg: ProviderConfig): ProviderRoutes {
  const r = cfg.repository;
  if (!r) return NONE;
  const prefix = `/${r}/`;
  return {
    route(path) {
      if (!path.startsWith(prefix) || path.length === prefix.length) return null;
      if (fileClassOf(path) === "image") {
        return { origin: "https://images.prismic.io", path, query: "keep", role: "images" };
      }
      return { origin: `https://${r}.cdn.prismic.io`, path, query: "keep", role: "files" };
    },
  };
}

/** Sanity: one segment `<asset id>[-<w>x<h>].<ext>`, images or files of the project's dataset. */
function sanityRoutes(cfg: ProviderConfig): ProviderRoutes {
  const p = cfg.projectId;
  if (!p) return NONE;
  const d = cfg.dataset || "production";
  return {
    route(path) {
      if (!/^\/[A-Za-z0-9_-]+\.[A-Za-z0-9]+$/.test(path)) return null;
      if (fileClassOf(path) === "image") {
        return {
          origin: `https://cdn.sanity.io/images/${p}/${d}`,
          path,
          query: "keep",
          role: "images",
        };
      }
      return {
        origin: `https://cdn.sanity.io/files/${p}/${d}`,
        path,
        query: "drop",
        role: "files",
      };
    },
  };
}

/** Shopify: `/cdn/shop/…` on the store domain. */
function shopifyRoutes(cfg: ProviderConfig): ProviderRoutes {
  const st = cfg.storeDomain;
  if (!st) return NONE;
  return {
    route(path) {
      if (!path.startsWith("/cdn/shop/") || path.length <= 10) return null;
      return { origin: `https://${st}`, path, query: "keep", role: "store files" };
    },
  };
}

/** Cloudinary: `[/<cloud>]/image|video/upload/…` on the image host; the query is dropped. */
function cloudinaryRoutes(cfg: ProviderConfig, env: ProviderEnv): ProviderRoutes {
  const c = cfg.cloudName;
  if (!c) return NONE;
  const origin = `${(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST).replace(/\/+$/, "")}/${c}`;
  const cloudPrefix = `/${c}/`;
  return {
    route(path) {
      let rest = path;
      if (rest.startsWith(cloudPrefix)) rest = rest.slice(cloudPrefix.length - 1);
      const video = rest.startsWith("/video/upload/");
      if (!video && !rest.startsWith("/image/upload/")) return null;
      // SPEC: query parameters on image URLs are stripped from the cache key
      return { origin, path: rest, query: "drop", role: video ? "videos" : "images" };
    },
  };
}

/** imgix: any path on the source domain (strict: only recognisable files). */
function imgixRoutes(cfg: ProviderConfig): ProviderRoutes {
  const d = cfg.imgixDomain;
  if (!d) return NONE;
  return {
    route(path, strict) {
      if (path === "/" || (strict && fileClassOf(path) === "other")) return null;
      return { origin: `https://${d}`, path, query: "keep", role: "source" };
    },
  };
}

/** Storyblok: any path on the region's asset host (strict: only `/f/…`). */
function storyblokRoutes(cfg: ProviderConfig): ProviderRoutes {
  const h = STORYBLOK_HOSTS[cfg.region ?? "eu"] ?? STORYBLOK_HOSTS.eu;
  return {
    route(path, strict) {
      if (path === "/" || (strict && !path.startsWith("/f/"))) return null;
      return { origin: `https://${h.assets}`, path, query: "keep", role: "assets" };
    },
  };
}

/** Generic: any path on `originUrl`, videos on `videoOrigin` when set (strict: only files). */
function genericRoutes(cfg: ProviderConfig): ProviderRoutes {
  const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
  const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
  if (!o && !v) return NONE;
  return {
    route(path, strict) {
      if (path === "/") return null;
      const cls = fileClassOf(path);
      if (strict && cls === "other") return null;
      const use = v && (cls === "video" || !o) ? v : o!;
      return { origin: originUrl(use), path, query: "keep", role: use === v ? "videos" : "origin" };
    },
  };
}

/** One route compiler per kind: a new provider adds its function here (docs/providers.md). */
const ROUTE_COMPILERS: Record<ProviderKind, RouteCompiler> = {
  contentful: contentfulRoutes,
  prismic: prismicRoutes,
  sanity: sanityRoutes,
  shopify: shopifyRoutes,
  cloudinary: cloudinaryRoutes,
  imgix: imgixRoutes,
  storyblok: storyblokRoutes,
  generic: genericRoutes,
};

/** Compiles how clean paths of a config are routed upstream (docs/providers.md). */
export function compileProviderRoutes(cfg: ProviderConfig, env: ProviderEnv = {}): ProviderRoutes {
  return ROUTE_COMPILERS[cfg.cms](cfg, env);
}

// ------------------------------------------------------------------ samples

/** A sample provider URL for a config and its clean tenant URL (dashboard, demos). */
export function sampleAsset(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): { source: string; clean: string } | null {
  const source = sampleSourceUrl(cfg, opts.env);
  if (!source) return null;
  return { source, clean: cleanUrlFor(cfg, source, opts) };
}

function sampleSourceUrl(cfg: ProviderConfig, env: ProviderEnv = {}): string | null {
  const o = deriveOrigins(cfg, env).assets[0];
  if (!o) return null;
  switch (cfg.cms) {
    case "contentful":
      return `${o.url}/5mPbW2dyZ1OLjbMOKSqwmk/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d/hero.jpg?w=800&fm=webp`;
    case "prismic":
      return `${o.url}/a1b2c3d4_hero.png?auto=format,compress&w=800`;
    case "sanity":
      return `${o.url}/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d3e4f5a6b-1200x800.jpg?w=800`;
    case "shopify":
      return `${o.url}/files/hero.jpg?v=1700000000&width=800`;
    case "cloudinary":
      return `${o.url}/image/upload/w_800,c_fill/v1700000000/hero.jpg`;
    case "imgix":
      return `${o.url}/photos/hero.jpg?w=800&auto=format`;
    case "storyblok":
      return `${o.url}/f/123456/1200x800/a1b2c3d4e5/hero.jpg`;
    case "generic":
      return `${o.url}/images/hero.jpg`;
  }
}

/** Everything the dashboard shows for a config: derived origins and one sample clean URL. */
export function describeProvider(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): DerivedOrigins & { sample: { source: string; clean: string } | null } {
  return { ...deriveOrigins(cfg, opts.env), sample: sampleAsset(cfg, opts) };
}
