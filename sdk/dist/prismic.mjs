/* @cachely/sdk 0.14.0 (sdk/prismic.ts) */

// sdk/prismic.ts
import * as prismic from "@prismicio/client";

// sdk/rewrite.ts
var ASSET_PREFIX = "/~assets/";
var IDENTITY = (text) => text;
function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
var SL = "\\\\?/";
function compileRewriter(rules) {
  const tenant = rules.tenantOrigin.replace(/\/+$/, "");
  const sources = [...rules.sources ?? []];
  const img = rules.imageHost;
  if (img && img.cloudName) sources.push(...imageHostSources(img));
  const alts = sources.map(
    (r) => `(${escapeRe(r.host.toLowerCase())}${r.path ? SL + r.path.replaceAll("/", SL) : ""})(?=\\\\?/)`
  );
  const hosts = (rules.assetHosts ?? []).filter((h) => h.length > 0);
  if (hosts.length > 0) {
    alts.push(
      `(${hosts.map((h) => escapeRe(h.toLowerCase())).join("|")})(?=[/\\\\?#"'\\s)<>,;]|$)`
    );
  }
  if (alts.length === 0) return IDENTITY;
  const re = new RegExp(
    `(?<![\\w.\\-/:\\\\@%])(https?:)?(${SL}${SL})(?:${alts.join("|")})`,
    "gi"
  );
  const n = sources.length;
  return (text) => {
    if (text.length === 0) return text;
    re.lastIndex = 0;
    return text.replace(re, (...args) => {
      const slashes = args[2];
      const escaped = slashes.includes("\\");
      let out;
      let i = 0;
      while (i < n && args[3 + i] === void 0) i++;
      if (i < n) {
        const rule = sources[i];
        const clean = typeof rule.clean === "string" ? rule.clean : rule.clean(args[3 + i].replaceAll("\\/", "/"));
        out = `${tenant}${clean}`;
      } else {
        out = `${tenant}${ASSET_PREFIX}${args[3 + n].toLowerCase()}`;
      }
      return escaped ? out.replaceAll("/", "\\/") : out;
    });
  };
}
function escapePathLiteral(s) {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}
function imageHostSources(img) {
  const cloudSeg = img.keepCloudName ? `/${img.cloudName}` : "";
  const clean = (m) => `${cloudSeg}/${/\/video\/upload$/i.test(m) ? "video" : "image"}/upload`;
  const out = [{
    host: img.host,
    path: `${escapePathLiteral(img.cloudName)}/(?:image|video)/upload`,
    clean
  }];
  if (img.privateHost) out.push({ host: img.privateHost, path: "(?:image|video)/upload", clean });
  return out;
}

// sdk/providers.ts
var PROVIDER_KINDS = [
  "contentful",
  "prismic",
  "sanity",
  "shopify",
  "cloudinary",
  "imgix",
  "storyblok",
  "generic"
];
var STORYBLOK_REGIONS = ["eu", "us", "ap", "ca", "cn"];
var DEFAULT_IMAGE_HOST = "https://res.cloudinary.com";
var DEFAULT_IMAGE_API = "https://api.cloudinary.com";
var HOSTNAME_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
var IDENTIFIER_RULES = {
  spaceId: { re: /^[a-z0-9]{4,64}$/, message: "must be a Contentful space ID (4-64 of a-z, 0-9)" },
  repository: {
    re: /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    message: "must be a Prismic repository name (a-z, 0-9 and -)"
  },
  projectId: { re: /^[a-z0-9]{1,64}$/, message: "must be a Sanity project ID (a-z, 0-9)" },
  dataset: {
    re: /^[a-z0-9][a-z0-9_-]{0,63}$/,
    message: "must be a Sanity dataset name (a-z, 0-9, _ and -)"
  },
  storeDomain: { re: HOSTNAME_RE, message: "must be a store domain such as shop.myshopify.com" },
  cloudName: { re: /^[A-Za-z0-9_-]{1,64}$/, message: "must be 1-64 of letters, digits, _ and -" },
  imgixDomain: { re: HOSTNAME_RE, message: "must be an imgix source domain such as x.imgix.net" }
};
function isHostname(value) {
  return HOSTNAME_RE.test(value);
}
var REQUIRED_FIELDS = {
  contentful: [],
  prismic: [],
  sanity: [],
  shopify: ["storeDomain"],
  cloudinary: ["cloudName"],
  imgix: ["imgixDomain"],
  storyblok: [],
  generic: []
};
var PROVIDER_FIELDS = {
  contentful: ["spaceId"],
  prismic: ["repository"],
  sanity: ["projectId", "dataset"],
  shopify: ["storeDomain"],
  cloudinary: ["cloudName"],
  imgix: ["imgixDomain"],
  storyblok: ["region"],
  generic: ["originUrl", "videoOrigin"]
};
function parseOrigin(value) {
  const m = /^(https?):\/\/([a-z0-9.-]+(?::\d{1,5})?)(\/[^?#\s]*)?$/i.exec(value.trim());
  if (!m) return null;
  const host = m[2].toLowerCase();
  const base = (m[3] ?? "").replace(/\/+$/, "");
  if (base.split("/").some((s, i) => i > 0 && (s === "" || s === "." || s === ".."))) return null;
  if (/%2f|%5c|\\/i.test(base)) return null;
  return { scheme: m[1].toLowerCase(), host, base };
}
function parseHttpsOrigin(value) {
  const o = parseOrigin(value);
  return o?.scheme === "https" ? o : null;
}
var originUrl = (o) => `${o.scheme}://${o.host}${o.base}`;
function validateProviderConfig(cfg, opts = {}) {
  for (const f of REQUIRED_FIELDS[cfg.cms]) {
    if (!cfg[f]) return { field: f, message: `is required for ${cfg.cms}` };
  }
  for (const f of PROVIDER_FIELDS[cfg.cms]) {
    const v = cfg[f];
    if (v === void 0 || v === null) continue;
    if (typeof v !== "string") return { field: f, message: "must be a string" };
    if (f === "region") {
      if (!STORYBLOK_REGIONS.includes(v)) {
        return { field: f, message: `must be one of ${STORYBLOK_REGIONS.join(", ")}` };
      }
    } else if (f === "originUrl" || f === "videoOrigin") {
      if (!(opts.allowHttp ? parseOrigin(v) : parseHttpsOrigin(v))) {
        return {
          field: f,
          message: opts.allowHttp ? "must be an http:// or https:// origin without query or fragment" : "must be an https:// origin without query or fragment"
        };
      }
    } else {
      const rule = IDENTIFIER_RULES[f];
      if (rule && !rule.re.test(v)) return { field: f, message: rule.message };
    }
  }
  return null;
}
var CLASS_BY_EXT = {};
for (const e of "jpg jpeg png webp avif gif svg bmp ico tif tiff heic heif jxl".split(" ")) {
  CLASS_BY_EXT[e] = "image";
}
for (const e of "mp4 webm mov m4v ogv mkv m3u8 mpd".split(" ")) CLASS_BY_EXT[e] = "video";
for (const e of "mp3 wav ogg oga m4a aac flac opus weba".split(" ")) CLASS_BY_EXT[e] = "audio";
for (const e of "woff woff2 ttf otf eot".split(" ")) CLASS_BY_EXT[e] = "font";
CLASS_BY_EXT.pdf = "document";
var STORYBLOK_HOSTS = {
  eu: { assets: "a.storyblok.com", api: "https://api.storyblok.com/v2/cdn" },
  us: { assets: "a-us.storyblok.com", api: "https://api-us.storyblok.com/v2/cdn" },
  ap: { assets: "a-ap.storyblok.com", api: "https://api-ap.storyblok.com/v2/cdn" },
  ca: { assets: "a-ca.storyblok.com", api: "https://api-ca.storyblok.com/v2/cdn" },
  cn: { assets: "a.storyblokchina.cn", api: "https://app.storyblokchina.cn/v2/cdn" }
};
function deriveOrigins(cfg, env = {}) {
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
          { role: "downloads", url: `https://downloads.ctfassets.net/${s}` }
        ]
      };
    }
    case "prismic": {
      const r = cfg.repository;
      if (!r) return { api: null, assets: [] };
      return {
        api: `https://${r}.cdn.prismic.io/api/v2`,
        assets: [
          { role: "images", url: `https://images.prismic.io/${r}` },
          { role: "files", url: `https://${r}.cdn.prismic.io/${r}` }
        ]
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
          { role: "files", url: `https://cdn.sanity.io/files/${p}/${d}` }
        ]
      };
    }
    case "shopify": {
      const st = cfg.storeDomain;
      if (!st) return { api: null, assets: [] };
      return {
        api: `https://${st}/api`,
        assets: [{ role: "store files", url: `https://${st}/cdn/shop` }]
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
          { role: "videos", url: `${host}/${c}` }
        ]
      };
    }
    case "imgix":
      return cfg.imgixDomain ? { api: null, assets: [{ role: "source", url: `https://${cfg.imgixDomain}` }] } : { api: null, assets: [] };
    case "storyblok": {
      const h = STORYBLOK_HOSTS[cfg.region ?? "eu"] ?? STORYBLOK_HOSTS.eu;
      return { api: h.api, assets: [{ role: "assets", url: `https://${h.assets}` }] };
    }
    case "generic": {
      const assets = [];
      const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
      if (o) assets.push({ role: "origin", url: originUrl(o) });
      const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
      if (v) assets.push({ role: "videos", url: originUrl(v) });
      return { api: null, assets };
    }
  }
}
var lit = escapePathLiteral;
function providerSources(cfg, env = {}, keepCloudName = false) {
  switch (cfg.cms) {
    case "contentful": {
      const s = cfg.spaceId;
      if (!s) return [];
      return ["images", "videos", "assets", "downloads"].map((sub) => ({
        host: `${sub}.ctfassets.net`,
        path: lit(s),
        clean: ""
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
        { host: "prismic-io.s3.amazonaws.com", path: lit(r), clean: keep }
      ];
    }
    case "sanity": {
      const p = cfg.projectId;
      if (!p) return [];
      const d = cfg.dataset || "production";
      return [
        { host: "cdn.sanity.io", path: `images/${lit(p)}/${lit(d)}`, clean: "" },
        { host: "cdn.sanity.io", path: `files/${lit(p)}/${lit(d)}`, clean: "" }
      ];
    }
    case "shopify": {
      const st = cfg.storeDomain;
      if (!st) return [];
      return [
        { host: st, path: "cdn/shop", clean: "/cdn/shop" },
        { host: "cdn.shopify.com", path: "s/files(?:/\\d+)+", clean: "/cdn/shop" },
        { host: "cdn.shopify.com", path: "videos", clean: "/cdn/shop/videos" }
      ];
    }
    case "cloudinary": {
      const c = cfg.cloudName;
      if (!c) return [];
      const host = hostOf(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST);
      const seg = keepCloudName ? `/${c}` : "";
      const clean = (m) => `${seg}/${/\/video\/upload$/i.test(m) ? "video" : "image"}/upload`;
      const out = [
        { host, path: `${lit(c)}/(?:image|video)/upload`, clean }
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
      const out = [];
      for (const raw of [cfg.videoOrigin, cfg.originUrl]) {
        const o = raw ? parseOrigin(raw) : null;
        if (o) {
          out.push({
            host: o.host,
            path: o.base.split("/").slice(1).map(lit).join("/"),
            clean: ""
          });
        }
      }
      return out;
    }
  }
}
function hostOf(origin) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}

// sdk/tenant_origin.ts
var DEFAULT_PROXY_DOMAIN = "cachely.app";
var TENANT_SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;
function optionError(fn, option, detail) {
  return new Error(`${fn}: invalid option ${option}: ${detail}`);
}
function envProxyUrl() {
  return envSetting("CACHELY_PROXY_URL", [""]) ?? browserProxyUrl() ?? envSetting("CACHELY_PROXY_URL", ["VITE_", "NEXT_PUBLIC_", "NUXT_PUBLIC_"]);
}
function browserProxyUrl() {
  const reads = [
    () => import.meta.env?.VITE_CACHELY_PROXY_URL,
    // @ts-ignore: Node's global, untyped where the package's types are built (no @types/node)
    () => process.env.NEXT_PUBLIC_CACHELY_PROXY_URL,
    () => globalThis.__NUXT__?.config?.public?.cachelyProxyUrl
  ];
  for (const read of reads) {
    try {
      const v = read();
      if (typeof v === "string" && v.trim()) return v.trim();
    } catch {
    }
  }
  return void 0;
}
var PUBLIC_PREFIXES = ["", "NEXT_PUBLIC_", "NUXT_PUBLIC_", "PUBLIC_", "GATSBY_", "VITE_"];
function envSetting(name, prefixes = PUBLIC_PREFIXES) {
  const g = globalThis;
  for (const prefix of prefixes) {
    try {
      const k = prefix + name;
      const v = g.process?.env?.[k] ?? g.Deno?.env?.get(k);
      if (v && v.trim()) return v.trim();
    } catch {
      return void 0;
    }
  }
  return void 0;
}
function asksVerifiedDomain(t) {
  return t.customDomain === true && t.tenantOrigin === void 0 && t.tenant !== void 0 && envSetting("CACHELY_CUSTOM_DOMAIN") === void 0;
}
function targetOrEnv(t) {
  if (t.tenant !== void 0 || t.customDomain !== void 0 || t.tenantOrigin !== void 0) {
    return t;
  }
  const env = envProxyUrl();
  return env ? { ...t, tenantOrigin: env } : null;
}
var LOCAL_RE = /(^|\.)localhost(:\d+)?$|^127\.0\.0\.1(:\d+)?$/;
function resolveTenantOrigin(fn, t) {
  if (t.tenantOrigin !== void 0) {
    let u;
    try {
      u = new URL(String(t.tenantOrigin));
    } catch {
      throw optionError(fn, "tenantOrigin", `${JSON.stringify(t.tenantOrigin)} is not a URL`);
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") {
      throw optionError(fn, "tenantOrigin", "must be an http or https origin");
    }
    return u.origin;
  }
  const configured = t.customDomain === true ? envSetting("CACHELY_CUSTOM_DOMAIN") : void 0;
  if (t.customDomain === true && configured === void 0 && t.tenant === void 0) {
    throw optionError(
      fn,
      "customDomain",
      "true needs CACHELY_CUSTOM_DOMAIN in the environment, or a tenant"
    );
  }
  if (configured !== void 0 || t.customDomain !== void 0 && t.customDomain !== true) {
    const raw = configured ?? t.customDomain;
    const d = String(raw).trim().toLowerCase();
    if (!isHostname(d)) {
      throw optionError(
        fn,
        configured === void 0 ? "customDomain" : "customDomain (CACHELY_CUSTOM_DOMAIN)",
        `${JSON.stringify(raw)} is not a hostname such as cdn.example.com`
      );
    }
    return `https://${d}`;
  }
  if (t.tenant === void 0 || t.tenant === null || t.tenant === "") {
    throw optionError(fn, "tenant", "is required (or customDomain or tenantOrigin)");
  }
  if (typeof t.tenant !== "string" || !TENANT_SLUG_RE.test(t.tenant)) {
    throw optionError(
      fn,
      "tenant",
      `${JSON.stringify(t.tenant)} is not a tenant slug (3-63 of a-z, 0-9 and -)`
    );
  }
  const domain = (t.proxyDomain ?? DEFAULT_PROXY_DOMAIN).trim().toLowerCase();
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(domain) || domain.startsWith(".")) {
    throw optionError(fn, "proxyDomain", `${JSON.stringify(t.proxyDomain)} is not a domain`);
  }
  const scheme = LOCAL_RE.test(domain) ? "http" : "https";
  return `${scheme}://${t.tenant}.${domain}`;
}

// sdk/provider_registry.ts
var def = (kind, label, required, packages) => ({ kind, label, fields: PROVIDER_FIELDS[kind], required, packages });
var providerRegistry = {
  contentful: def("contentful", "Contentful", ["spaceId"], [
    "contentful",
    "@contentful/rich-text-react-renderer"
  ]),
  prismic: def("prismic", "Prismic", ["repository"], [
    "@prismicio/client",
    "@prismicio/next",
    "@prismicio/react",
    "@prismicio/vue",
    "@nuxtjs/prismic"
  ]),
  sanity: def("sanity", "Sanity", ["projectId"], [
    "@sanity/client",
    "next-sanity",
    "@sanity/image-url"
  ]),
  shopify: def("shopify", "Shopify", ["storeDomain"], [
    "@shopify/hydrogen",
    "@shopify/storefront-api-client",
    "shopify-buy"
  ]),
  cloudinary: def("cloudinary", "Cloudinary", ["cloudName"], [
    "cloudinary",
    "@cloudinary/url-gen",
    "next-cloudinary"
  ]),
  imgix: def("imgix", "imgix", ["imgixDomain"], ["@imgix/js-core", "react-imgix", "imgix-core-js"]),
  storyblok: def("storyblok", "Storyblok", [], [
    "@storyblok/js",
    "@storyblok/react",
    "@storyblok/vue",
    "@storyblok/nuxt",
    "storyblok-js-client"
  ]),
  generic: def("generic", "Generic origin (S3, R2, GCS, any HTTPS origin)", [], [])
};
var FN = "createGenericProvider";
var ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
function sourcesFor(id, o) {
  const kept = o.base.split("/").slice(1).map(escapePathLiteral).join("/");
  const generic = [{ host: o.host, path: kept, clean: "" }];
  if (o.base) return generic;
  switch (id) {
    case "contentful":
      return o.host.endsWith(".ctfassets.net") ? [{ host: o.host, path: "[A-Za-z0-9]+", clean: "" }] : generic;
    case "sanity":
      return o.host === "cdn.sanity.io" ? [{ host: o.host, path: "(?:images|files)/[a-z0-9]+/[a-z0-9_-]+", clean: "" }] : generic;
    case "shopify":
      return o.host === "cdn.shopify.com" ? providerSources({ cms: "shopify", storeDomain: "any.myshopify.com" }).filter((r) => r.host === "cdn.shopify.com") : providerSources({ cms: "shopify", storeDomain: o.host });
    case "imgix":
      return providerSources({ cms: "imgix", imgixDomain: o.host });
    default:
      return generic;
  }
}
function kindApiOrigin(id, o) {
  if (id !== "shopify" || o.base || !isHostname(o.host)) return o.origin;
  return deriveOrigins({ cms: "shopify", storeDomain: o.host }).api ?? o.origin;
}
function parseHostOrOrigin(raw) {
  const s = String(raw ?? "").trim();
  if (/^https?:\/\//i.test(s)) {
    const api = parseApiOrigin(s);
    if (!api) return null;
    const u = new URL(api);
    return { host: u.host, base: u.pathname.replace(/\/+$/, ""), origin: api };
  }
  const m = /^([a-z0-9.-]+)(:\d{1,5})?$/i.exec(s);
  if (!m || !(isHostname(m[1].toLowerCase()) || /^(localhost|127\.0\.0\.1)$/i.test(m[1]))) {
    return null;
  }
  const host = s.toLowerCase();
  const local = /^(localhost|127\.0\.0\.1)(:|$)/.test(host) || host.split(":")[0].endsWith(".localhost");
  return { host, base: "", origin: `${local ? "http" : "https"}://${host}` };
}
function createGenericProvider(opts = {}) {
  if (opts === null || typeof opts !== "object") {
    throw optionError(FN, "options", "must be an object");
  }
  const id = opts.id === void 0 ? "generic" : String(opts.id);
  if (!ID_RE.test(id)) {
    throw optionError(
      FN,
      "id",
      `${JSON.stringify(opts.id)} is not a provider id (a-z, 0-9, - and _)`
    );
  }
  const list = (name, v) => {
    if (v === void 0) return [];
    if (!Array.isArray(v)) throw optionError(FN, name, "must be an array of hostnames");
    return v;
  };
  const origins = list("assetHosts", opts.assetHosts).map((raw, i) => {
    const o = parseHostOrOrigin(raw);
    if (!o) {
      throw optionError(FN, `assetHosts[${i}]`, `${JSON.stringify(raw)} is not a hostname`);
    }
    return o;
  });
  const apiOrigins = list("apiHosts", opts.apiHosts).map((raw, i) => {
    const o = parseHostOrOrigin(raw);
    if (!o) throw optionError(FN, `apiHosts[${i}]`, `${JSON.stringify(raw)} is not a hostname`);
    return kindApiOrigin(id, o);
  });
  if (opts.apiHost !== void 0) {
    const api = parseApiOrigin(opts.apiHost);
    if (!api) {
      throw optionError(FN, "apiHost", `${JSON.stringify(opts.apiHost)} is not an https origin`);
    }
    apiOrigins.push(api);
  }
  const config = {
    cms: "generic",
    originUrl: origins[0] ? `https://${origins[0].host}${origins[0].base}` : null,
    videoOrigin: origins[1] ? `https://${origins[1].host}${origins[1].base}` : null
  };
  const sources = origins.flatMap((o) => sourcesFor(id, o));
  return {
    kind: "generic",
    id,
    config,
    apiOrigin: apiOrigins[0] ?? null,
    apiOrigins,
    rewriter: (tenantOrigin) => compileRewriter({ tenantOrigin, sources })
  };
}
function parseApiOrigin(raw) {
  const s = String(raw).trim();
  let u;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return null;
  }
  if (u.search || u.hash || u.username || u.password) return null;
  const local = /^(localhost|127\.0\.0\.1|\[::1\])$/.test(u.hostname);
  if (u.protocol !== "https:" && !(u.protocol === "http:" && local)) return null;
  return (u.origin + u.pathname).replace(/\/+$/, "");
}
var BUILT_IN_IDS = ["contentful", "prismic"];
function isResolved(p) {
  return typeof p === "object" && p !== null && typeof p.rewriter === "function";
}
function resolveProvider(input, opts = {}) {
  const fn = opts.fn ?? "resolveProvider";
  const option = opts.option ?? "provider";
  if (isResolved(input)) return input;
  if (typeof input === "string" && !BUILT_IN_IDS.includes(input)) {
    throw optionError(
      fn,
      option,
      `${JSON.stringify(input)} is not a built-in provider (${BUILT_IN_IDS.join(", ")}); build it with createGenericProvider({ id, apiHosts, assetHosts })`
    );
  }
  const cfg = typeof input === "string" ? { cms: input } : input;
  if (!cfg || typeof cfg !== "object") {
    throw optionError(
      fn,
      option,
      `must be one of ${PROVIDER_KINDS.join(", ")}, or a provider config`
    );
  }
  if (!PROVIDER_KINDS.includes(cfg.cms)) {
    throw optionError(
      fn,
      typeof input === "string" ? option : `${option}.cms`,
      `${JSON.stringify(cfg.cms)} is not a provider kind (one of ${PROVIDER_KINDS.join(", ")})`
    );
  }
  let apiOrigin = null;
  if (opts.apiOrigin !== void 0) {
    apiOrigin = parseApiOrigin(opts.apiOrigin);
    if (!apiOrigin) {
      throw optionError(
        fn,
        "apiOrigin",
        `${JSON.stringify(opts.apiOrigin)} is not an https origin`
      );
    }
  }
  if (cfg.cms === "generic") {
    const assetHosts = [cfg.originUrl, cfg.videoOrigin].filter((v) => !!v);
    for (const f of ["originUrl", "videoOrigin"]) {
      if (cfg[f] && !parseHttpsOrigin(String(cfg[f]))) {
        throw optionError(
          fn,
          `${option}.${f}`,
          "must be an https:// origin without query or fragment"
        );
      }
    }
    return createGenericProvider({ assetHosts, apiHost: apiOrigin ?? void 0 });
  }
  if (cfg.cms === "prismic" && !cfg.repository && apiOrigin === null) {
    return prismicFromUrls(cfg, opts.env);
  }
  for (const f of providerRegistry[cfg.cms].required) {
    if (!cfg[f]) throw optionError(fn, `${option}.${f}`, `is required for ${cfg.cms}`);
  }
  const problem = validateProviderConfig(cfg);
  if (problem) throw optionError(fn, `${option}.${problem.field}`, problem.message);
  const env = opts.env ?? {};
  apiOrigin ??= deriveOrigins(cfg, env).api;
  const api = apiOrigin ? apiOrigin.replace(/\/+$/, "") : null;
  return {
    kind: cfg.cms,
    id: cfg.cms,
    config: { ...cfg },
    apiOrigin: api,
    apiOrigins: api ? [api] : [],
    rewriter: (tenantOrigin, o = {}) => compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) })
  };
}
var PRISMIC_API_RE = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.(?:cdn\.)?prismic\.io$/;
function prismicFromUrls(cfg, env) {
  const known = /* @__PURE__ */ new Map();
  return {
    kind: "prismic",
    id: "prismic",
    config: { ...cfg },
    apiOrigin: null,
    apiOrigins: [],
    rewriter: (tenantOrigin, o = {}) => compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) }),
    fromApiUrl(url) {
      const m = PRISMIC_API_RE.exec(url.hostname);
      if (!m || url.protocol !== "https:" || !/^\/api\/v2(\/|$)/.test(url.pathname)) return null;
      let p = known.get(m[1]);
      if (!p) {
        p = resolveProvider({ ...cfg, repository: m[1] }, { env });
        if (known.size < 64) known.set(m[1], p);
      }
      return p;
    }
  };
}

// sdk/domain_lookup.ts
var DOMAIN_LOOKUP_MS = 3e3;
var lookups = /* @__PURE__ */ new Map();
function verifiedDomainOrigin(tenantOrigin, f) {
  let found = lookups.get(tenantOrigin);
  if (!found) lookups.set(tenantOrigin, found = ask(tenantOrigin, f));
  return found;
}
async function ask(tenantOrigin, f) {
  const abort = typeof AbortController === "function" ? new AbortController() : null;
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => {
      abort?.abort();
      resolve(null);
    }, DOMAIN_LOOKUP_MS);
  });
  const read = async () => {
    const res = await f(`${tenantOrigin}/~domain`, {
      headers: { accept: "application/json" },
      ...abort ? { signal: abort.signal } : {}
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const domain = (await res.json())?.domain;
    if (typeof domain !== "string") return null;
    const d = domain.trim().toLowerCase();
    return isHostname(d) ? `https://${d}` : null;
  };
  try {
    return await Promise.race([read().catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
var LearntOrigin = class {
  constructor(host, learn, f, rewriters) {
    this.host = host;
    this.learn = learn;
    this.f = f;
    this.rewriters = rewriters;
    this.current = host;
  }
  host;
  learn;
  f;
  rewriters;
  current;
  pending = null;
  /** Null when the origin is known; else the first lookup (shared), which never rejects. */
  ready() {
    if (!this.learn) return null;
    return this.pending ??= verifiedDomainOrigin(this.host, this.f).then((origin) => {
      this.learn = false;
      if (!origin) return;
      this.current = origin;
      this.rewriters.clear();
    });
  }
  /** True for the tenant host and the learnt origin (URLs already on the proxy). */
  owns(origin) {
    return origin === this.current || origin === this.host;
  }
  /** `f` with a `tenantOrigin` getter reading the current origin. */
  exposedOn(f) {
    const get = () => this.current;
    return Object.defineProperty(f, "tenantOrigin", { get, enumerable: true });
  }
};

// sdk/preview.ts
var PREVIEW_TOKEN_PARAM = "cachely-preview-token";

// sdk/fetch.ts
var FN2 = "createCachelyFetch";
var PROFILE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
var PARAM_RE = /^[A-Za-z0-9_.-]{1,64}$/;
var CREDENTIAL_PARAMS = ["access_token", "token"];
function createCachelyFetch(options) {
  if (options === null || typeof options !== "object") {
    throw optionError(FN2, "options", "must be an object");
  }
  const tenantHost = resolveTenantOrigin(FN2, options);
  if (options.provider === void 0) throw optionError(FN2, "provider", "is required");
  const provider = resolveProvider(options.provider, {
    fn: FN2,
    env: options.env,
    apiOrigin: options.apiOrigin
  });
  const previewParam = options.previewParam ?? "preview";
  if (!PARAM_RE.test(previewParam)) {
    throw optionError(
      FN2,
      "previewParam",
      `${JSON.stringify(previewParam)} is not a parameter name`
    );
  }
  if (options.transform !== void 0 && !PROFILE_RE.test(String(options.transform))) {
    throw optionError(
      FN2,
      "transform",
      `${JSON.stringify(options.transform)} is not a profile name`
    );
  }
  const capture = options.experiments;
  if (capture !== void 0 && typeof capture?.captureFromResponse !== "function") {
    throw optionError(FN2, "experiments", "must be a tracker (with captureFromResponse)");
  }
  const inner = options.fetch ?? defaultFetch(tenantHost);
  if (typeof inner !== "function") throw optionError(FN2, "fetch", "must be a function");
  const rewriteOff = options.rewriteAssets === false;
  const rewriters = /* @__PURE__ */ new Map();
  const origin = new LearntOrigin(tenantHost, asksVerifiedDomain(options), inner, rewriters);
  const rewriterOf = (p) => {
    if (rewriteOff) return null;
    let r = rewriters.get(p);
    if (!r) rewriters.set(p, r = p.rewriter(origin.current));
    return r;
  };
  let current = provider;
  const apisOf = (p) => p.apiOrigins.map((o) => {
    const u = new URL(o);
    return { origin: u.origin, path: u.pathname.replace(/\/+$/, "") };
  });
  const apis = apisOf(provider);
  function proxied(raw) {
    let u;
    let via = current;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(raw) && !raw.startsWith("//")) {
      u = new URL(`${origin.current}/~api/${raw.replace(/^\/+/, "")}`);
    } else {
      u = new URL(raw);
      if (origin.owns(u.origin) && (u.pathname === "/~api" || u.pathname.startsWith("/~api/"))) {
      } else {
        const derived = provider.fromApiUrl?.(u) ?? null;
        via = derived ?? provider;
        const api = (derived ? apisOf(derived) : apis).find(
          (a) => u.origin === a.origin && (a.path === "" || u.pathname === a.path || u.pathname.startsWith(a.path + "/"))
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
  const cachelyFetch = async function(input, init) {
    await origin.ready();
    const isRequest = typeof Request !== "undefined" && input instanceof Request;
    const raw = isRequest ? input.url : String(input);
    const route = proxied(raw);
    const target = route?.url;
    if (route) current = route.via;
    let res;
    if (target) {
      const headers2 = new Headers(
        init?.headers ?? (isRequest ? input.headers : void 0)
      );
      headers2.delete("authorization");
      res = isRequest ? await inner(
        new Request(target.toString(), new Request(input, { ...init, headers: headers2 }))
      ) : await inner(target.toString(), { ...init, headers: headers2 });
    } else {
      res = await inner(input, init);
    }
    if (capture) {
      try {
        capture.captureFromResponse(res);
      } catch {
      }
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
      headers
    });
    Object.defineProperty(out, "url", { value: res.url });
    Object.defineProperty(out, "redirected", { value: res.redirected });
    return out;
  };
  return Object.assign(origin.exposedOn(cachelyFetch), {
    provider,
    proxyUrl: (url) => proxied(String(url))?.url.toString() ?? String(url),
    rewriteAssets: (text) => rewriterOf(current)?.(text) ?? text
  });
}
function isJson(res) {
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  return type.includes("application/json") || /\+json\b/.test(type);
}
function defaultFetch(tenantOrigin) {
  const host = new URL(tenantOrigin).hostname;
  const browser = typeof globalThis.document !== "undefined";
  if (browser || !host.endsWith(".localhost")) return globalThis.fetch;
  return ((input, init) => {
    const url = typeof Request !== "undefined" && input instanceof Request ? input.url : String(input);
    return new URL(url).hostname.endsWith(".localhost") ? loopbackFetch(url, init) : globalThis.fetch(input, init);
  });
}
async function loopbackFetch(url, init = {}) {
  const spec = "node:http";
  const http = await import(spec);
  const u = new URL(url);
  const headers = {};
  new Headers(init.headers).forEach((v, k) => headers[k] = v);
  headers.host = u.host;
  const body = init.body == null ? void 0 : typeof init.body === "string" ? init.body : new Uint8Array(await new Response(init.body).arrayBuffer());
  return await new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port: Number(u.port || 80),
      method: init.method ?? "GET",
      path: u.pathname + u.search,
      headers,
      signal: init.signal ?? void 0
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === void 0) continue;
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
    if (body !== void 0) req.write(body);
    req.end();
  });
}

// sdk/url.ts
var DEFAULT_ASSET_ORIGIN = "https://res.cloudinary.com";

// sdk/transformer.ts
function hostOf2(origin) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin);
  if (!m) throw new TypeError(`Invalid origin: ${origin}`);
  return m[1].toLowerCase();
}
function createResponseTransformer(options) {
  let rewrite = null;
  let base = "";
  let setupError = null;
  try {
    base = options.base.replace(/\/+$/, "");
    if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(base)) {
      throw new TypeError(`Invalid base: ${options.base}`);
    }
    const host = hostOf2(options.assetOrigin ?? DEFAULT_ASSET_ORIGIN);
    rewrite = compileRewriter({
      tenantOrigin: base,
      sources: options.provider ? providerSources(options.provider, { imageHostOrigin: options.assetOrigin }) : options.sources,
      assetHosts: options.assetHosts,
      imageHost: options.cloudName && options.provider?.cms !== "cloudinary" ? {
        host,
        cloudName: options.cloudName,
        privateHost: host.startsWith("res.") ? `${options.cloudName}-res.${host.slice(4)}` : null
      } : void 0
    });
  } catch (e) {
    setupError = e;
  }
  return (data) => {
    try {
      if (setupError) throw setupError;
      let json = JSON.stringify(data);
      if (json === void 0) return data;
      json = rewrite(json);
      for (const t of options.transformers ?? []) {
        const out = t(json, base);
        if (typeof out !== "string") throw new TypeError("A transformer must return a string");
        json = out;
      }
      let result = JSON.parse(json);
      if (options.postTransform) {
        const post = options.postTransform(result);
        if (post !== void 0) result = post;
      }
      return result;
    } catch (error) {
      if (options.onError) {
        const replaced = options.onError(error, data);
        return replaced === void 0 ? data : replaced;
      }
      console.warn("[cachely] response transform failed; returning the original data", error);
      return data;
    }
  };
}
function transformResponse(data, options) {
  return createResponseTransformer(options)(data);
}

// sdk/legacy_transform.ts
var PRISMIC_ANY = ["images.prismic.io", "prismic-io.imgix.net"].map((host) => ({ host, path: "", clean: "" }));
var CONTENTFUL_ANY = ["images", "videos", "assets", "downloads"].map((sub) => ({ host: `${sub}.ctfassets.net`, path: "[A-Za-z0-9]+", clean: "" }));
function transformPrismicAssetUrls(data, options) {
  const { repository, ...rest } = options ?? {};
  return transformResponse(
    data,
    repository ? { ...rest, provider: { cms: "prismic", repository } } : { ...rest, sources: PRISMIC_ANY }
  );
}

// sdk/prismic.ts
var FN3 = "createCachelyPrismicClient";
function createCachelyPrismicClient(options) {
  if (options === null || typeof options !== "object") {
    throw optionError(FN3, "options", "must be an object");
  }
  const {
    repositoryName,
    tenant,
    customDomain,
    proxyDomain,
    tenantOrigin,
    experiments,
    preview,
    previewParam,
    transform,
    apiOrigin,
    fetch: innerFetch,
    accessToken,
    ...clientConfig
  } = options;
  const target = targetOrEnv({ tenant, customDomain, proxyDomain, tenantOrigin });
  if (target === null) {
    const client2 = prismic.createClient(repositoryName, {
      ...clientConfig,
      accessToken,
      ...innerFetch ? { fetch: innerFetch } : {}
    });
    return Object.assign(client2, { cachelyFetch: null });
  }
  let cachelyFetch;
  try {
    cachelyFetch = createCachelyFetch({
      ...target,
      experiments,
      preview,
      previewParam,
      transform,
      apiOrigin,
      fetch: innerFetch,
      provider: { cms: "prismic", repository: repositoryName }
    });
  } catch (e) {
    throw new Error(
      e.message.replace("createCachelyFetch", FN3).replace(
        "provider.repository",
        "repositoryName"
      )
    );
  }
  const client = prismic.createClient(repositoryName, {
    ...clientConfig,
    fetch: cachelyFetch
  });
  return Object.assign(client, { cachelyFetch });
}
export {
  createCachelyPrismicClient,
  transformPrismicAssetUrls
};
