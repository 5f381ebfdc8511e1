#!/usr/bin/env node
/* @cachely/sdk 0.14.0 (sdk/bin.ts) */

// sdk/bin.ts
import { stat as stat2 } from "node:fs/promises";
import process2 from "node:process";
import { createInterface } from "node:readline/promises";

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

// sdk/args.ts
var UsageError = class extends Error {
  name = "UsageError";
};
function parseArgs(argv2, spec) {
  const positionals = [];
  const flags = {};
  for (let i = 0; i < argv2.length; i++) {
    const a = argv2[i];
    if (a === "--") {
      positionals.push(...argv2.slice(i + 1));
      break;
    }
    if (a === "-h") {
      flags.help = true;
      continue;
    }
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq === -1 ? void 0 : eq);
    const kind = Object.hasOwn(spec, name) ? spec[name] : void 0;
    if (!kind) throw new UsageError(`Unknown option: --${name}`);
    if (kind === "bool") {
      if (eq !== -1) throw new UsageError(`Option --${name} takes no value`);
      flags[name] = true;
    } else if (eq !== -1) {
      flags[name] = a.slice(eq + 1);
    } else {
      const v = argv2[++i];
      if (v === void 0 || v.startsWith("--")) {
        throw new UsageError(`Option --${name} needs a value`);
      }
      flags[name] = v;
    }
  }
  return { positionals, flags };
}

// sdk/setup_detect.ts
var FRAMEWORKS = [
  ["next", ["next"]],
  ["nuxt", ["nuxt", "nuxt3"]],
  ["sveltekit", ["@sveltejs/kit"]],
  ["astro", ["astro"]],
  ["remix", ["@remix-run/react", "@remix-run/node", "@react-router/dev"]],
  ["gatsby", ["gatsby"]],
  ["vite", ["vite"]]
];
var ENV_PREFIX = {
  next: "NEXT_PUBLIC_",
  nuxt: "NUXT_PUBLIC_",
  sveltekit: "PUBLIC_",
  astro: "PUBLIC_",
  remix: "",
  gatsby: "GATSBY_",
  vite: "VITE_",
  node: "",
  unknown: ""
};
var FRAMEWORK_NAMES = Object.keys(ENV_PREFIX);
function isFramework(name) {
  return FRAMEWORK_NAMES.includes(name);
}
function detectProject(pkg) {
  const deps = /* @__PURE__ */ new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {})
  ]);
  let framework = deps.size > 0 ? "node" : "unknown";
  for (const [fw, names] of FRAMEWORKS) {
    if (names.some((n) => deps.has(n))) {
      framework = fw;
      break;
    }
  }
  for (const kind of PROVIDER_KINDS) {
    const hit = providerRegistry[kind].packages.find((p) => deps.has(p));
    if (hit) return { framework, provider: kind, providerPackage: hit };
  }
  return { framework, provider: null, providerPackage: null };
}

// sdk/setup_files.ts
function proxyUrlVariable(framework) {
  const prefix = { vite: "VITE_", next: "NEXT_PUBLIC_", nuxt: "NUXT_PUBLIC_" }[framework];
  return `${prefix ?? ""}CACHELY_PROXY_URL`;
}
function envRead(framework, name) {
  return framework === "vite" ? `import.meta.env.VITE_${name}` : `process.env.${name}`;
}
function proxyUrlRead(framework) {
  if (framework === "vite") return "import.meta.env.VITE_CACHELY_PROXY_URL";
  if (framework === "nuxt") return "useRuntimeConfig().public.cachelyProxyUrl";
  return `process.env.${proxyUrlVariable(framework)}`;
}
var GENERATED_MARK = "// Generated by cachely setup";
function helperPath(framework, hasUtilsDir, prismic) {
  if (framework === "next") return "lib/cachely.ts";
  if (framework === "nuxt") {
    if (prismic) return "composables/useCachelyPrismicClient.ts";
    return hasUtilsDir ? "utils/cachely.ts" : "composables/useCachely.ts";
  }
  return "cachely.ts";
}
function genericHosts(cfg) {
  const d = deriveOrigins(cfg);
  const keepPath = cfg.cms === "generic" || cfg.cms === "storyblok";
  const assetHosts = d.assets.map((a) => keepPath ? a.url : new URL(a.url).host);
  return {
    apiHosts: d.api ? [d.api] : [],
    assetHosts: [...new Set(assetHosts)]
  };
}
function helperCode(cfg, framework, hasUtilsDir, sdkVersion, hosts = genericHosts(cfg)) {
  const nuxt = framework === "nuxt";
  const head = `${GENERATED_MARK} (@cachely/sdk ${sdkVersion}).
`;
  const variable = proxyUrlVariable(framework);
  const direct = `// Through Cachely when ${variable} is set (.env), straight to the CMS when it is not.
`;
  if (cfg.cms === "contentful") {
    return `${head}${direct}import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

export const contentful = createClient(
  createContentfulCachelyAdapter({
    space: ${JSON.stringify(cfg.spaceId ?? "")},
    accessToken: ${envRead(framework, "CONTENTFUL_ACCESS_TOKEN")}, // used only without ${variable}
  }),
);
${nuxt ? `
export const ${hasUtilsDir ? "cachelyContentful" : "useCachely"} = () => contentful;
` : ""}`;
  }
  if (cfg.cms === "prismic") {
    const name = nuxt ? "useCachelyPrismicClient" : "prismic";
    const client = `createCachelyPrismicClient({
    repositoryName: ${JSON.stringify(cfg.repository ?? "")},
    accessToken: ${envRead(framework, "PRISMIC_ACCESS_TOKEN")}, // used only without ${variable}
  })`;
    return `${head}${direct}import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

export const ${name} = ${nuxt ? `() =>
  ${client}` : client};
`;
  }
  const fetchName = nuxt ? hasUtilsDir ? "cachelyFetch" : "useCachely" : "cachelyFetch";
  const create = (indent) => `createCachelyFetch({
${indent}  tenantOrigin: ${proxyUrlRead(framework)},
${indent}  provider: createGenericProvider({
${indent}    id: ${JSON.stringify(cfg.cms)},
${indent}    apiHosts: ${JSON.stringify(hosts.apiHosts)},
${indent}    assetHosts: ${JSON.stringify(hosts.assetHosts)},
${indent}  }),
${indent}})`;
  const uses = `// Use it wherever your ${cfg.cms} client or code calls fetch: API calls go through the
// tenant's /~api/ proxy, asset URLs in answers point at the tenant host.`;
  const imports = `import { createCachelyFetch, createGenericProvider } from "@cachely/sdk";`;
  if (nuxt) {
    return `${head}// ${variable} (.env) is the tenant host: runtimeConfig.public.cachelyProxyUrl.
${imports}

${uses}
let fetchViaCachely: typeof fetch | undefined;
export const ${fetchName} = () => fetchViaCachely ??= ${create("")};
`;
  }
  return `${head}// ${variable} (.env) is the tenant host.
${imports}

${uses}
const fetchViaCachely = ${create("")};

export const ${fetchName} = fetchViaCachely;
`;
}
function envExampleWith(current, proxyUrl, variable = "CACHELY_PROXY_URL") {
  if (current !== null && new RegExp(`^${variable}=`, "m").test(current)) return null;
  const line = `# The tenant host (Cachely). Unset: the CMS helpers talk to the CMS directly.
${variable}=${proxyUrl}
`;
  if (current === null || current === "") return line;
  return `${current}${current.endsWith("\n") ? "" : "\n"}${line}`;
}

// sdk/setup_code.ts
function envRef(fw, name) {
  if (fw === "vite" || fw === "astro") return `import.meta.env.${name}`;
  return `process.env.${name}`;
}
var IDENTIFIER = {
  contentful: ["spaceId", "CONTENTFUL_SPACE_ID"],
  prismic: ["repository", "PRISMIC_REPOSITORY"],
  sanity: ["projectId", "SANITY_PROJECT_ID"],
  shopify: ["storeDomain", "SHOPIFY_STORE_DOMAIN"],
  cloudinary: ["cloudName", "CLOUDINARY_CLOUD_NAME"],
  imgix: ["imgixDomain", "IMGIX_DOMAIN"]
};
var SECRETS = {
  contentful: ["CONTENTFUL_ACCESS_TOKEN", "CONTENTFUL_DELIVERY_TOKEN"],
  prismic: ["PRISMIC_ACCESS_TOKEN"],
  sanity: ["SANITY_API_TOKEN", "SANITY_TOKEN"],
  shopify: ["SHOPIFY_STOREFRONT_ACCESS_TOKEN"],
  storyblok: ["STORYBLOK_TOKEN", "STORYBLOK_ACCESS_TOKEN"]
};
function setupChanges(cfg) {
  const prefix = ENV_PREFIX[cfg.framework];
  const v = (stem) => `${prefix}${stem}`;
  const env = [];
  const target = [];
  if (cfg.proxyUrl) {
    const variable = proxyUrlVariable(cfg.framework);
    env.push(`${variable}=${cfg.proxyUrl}`);
    if (cfg.framework === "nuxt") {
      env.push('nuxt.config: runtimeConfig: { public: { cachelyProxyUrl: "" } }');
    }
    target.push(
      `tenantOrigin: ${cfg.framework === "nuxt" ? "useRuntimeConfig().public.cachelyProxyUrl" : envRef(cfg.framework, variable)}`
    );
  } else if (cfg.customDomain) {
    env.push(`${v("CACHELY_CUSTOM_DOMAIN")}=${cfg.customDomain}`);
    target.push(`customDomain: ${envRef(cfg.framework, v("CACHELY_CUSTOM_DOMAIN"))}`);
  } else {
    env.push(`${v("CACHELY_TENANT")}=${cfg.tenant}`);
    target.push(`tenant: ${envRef(cfg.framework, v("CACHELY_TENANT"))}`);
    if (cfg.proxyDomain) target.push(`proxyDomain: ${JSON.stringify(cfg.proxyDomain)}`);
  }
  const id = IDENTIFIER[cfg.provider.cms];
  let idExpr = "";
  if (id && cfg.provider[id[0]]) {
    env.push(`${v(id[1])}=${cfg.provider[id[0]]}`);
    idExpr = envRef(cfg.framework, v(id[1]));
  }
  const removeEnv = (SECRETS[cfg.provider.cms] ?? []).flatMap((s) => [s, `${prefix}${s}`]).filter((s, i, a) => a.indexOf(s) === i);
  const t = target.join(", ");
  const ext = cfg.framework === "node" || cfg.framework === "unknown" ? "js" : "ts";
  let code2;
  switch (cfg.provider.cms) {
    case "contentful":
      code2 = `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

// Replaces createClient({ space, accessToken }): no token in the browser any more.
export const contentful = createClient(
  createContentfulCachelyAdapter({ space: ${idExpr}, ${t} }),
);`;
      break;
    case "prismic":
      code2 = `import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

// Replaces prismic.createClient(repositoryName, { accessToken }).
export const prismic = createCachelyPrismicClient({ repositoryName: ${idExpr}, ${t} });`;
      break;
    default: {
      const field = id ? `, ${String(id[0])}: ${idExpr}` : "";
      code2 = `import { createCachelyFetch } from "@cachely/sdk";

// Use cachelyFetch wherever your ${cfg.provider.cms} client or code calls fetch:
// API calls go through Cachely and asset URLs in answers point at your tenant host.
export const cachelyFetch = createCachelyFetch({
  ${t},
  provider: { cms: ${JSON.stringify(cfg.provider.cms)}${field} },${cfg.apiOrigin ? `
  apiOrigin: ${JSON.stringify(cfg.apiOrigin)},` : ""}
});`;
    }
  }
  return { env, removeEnv, file: `lib/cachely.${ext}`, code: code2 };
}

// sdk/setup_prismic_client.ts
var NUXT_PRISMIC_CLIENT_FILES = ["app/prismic/client.js", "app/prismic/client.ts"];
var PATCH_MARK = "// Patched by cachely setup";
var IMPORT_RE = /^[ \t]*import\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)|\{\s*createClient(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*,?\s*\})\s+from\s+(["'])@prismicio\/client\3;?[ \t]*\r?\n?/gm;
var ENDPOINT_RE = /^(["'`])https:\/\/([a-z0-9][a-z0-9-]*)\.cdn\.prismic\.io\/api(?:\/v2)?\/?\1$/;
function callArguments(src, open2) {
  const args = [];
  const stack = [];
  let start = open2 + 1;
  for (let i = open2 + 1; i < src.length; i++) {
    const ch = src[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== ch) {
        if (src[j] === "\\") j++;
        else if (ch === "`" && src[j] === "$" && src[j + 1] === "{") return null;
        else if (ch !== "`" && src[j] === "\n") return null;
        j++;
      }
      if (j >= src.length) return null;
      i = j;
    } else if (ch === "/" && (src[i + 1] === "/" || src[i + 1] === "*")) {
      return null;
    } else if (ch === "(" || ch === "[" || ch === "{") {
      stack.push(ch === "(" ? ")" : ch === "[" ? "]" : "}");
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (stack.length === 0) {
        if (ch !== ")") return null;
        const last = src.slice(start, i).trim();
        if (last !== "") args.push(last);
        else if (args.length > 0 && !/,\s*$/.test(src.slice(open2 + 1, i))) return null;
        return { args, close: i };
      }
      if (stack.pop() !== ch) return null;
    } else if (ch === "," && stack.length === 0) {
      const arg = src.slice(start, i).trim();
      if (arg === "") return null;
      args.push(arg);
      start = i + 1;
    }
  }
  return null;
}
function cachelyOptions(repo, options, indent) {
  const name = repo === "repositoryName" ? "repositoryName" : `repositoryName: ${repo}`;
  if (options === void 0) return `{ ${name} }`;
  if (!options.startsWith("{")) return `{ ${name}, ...${options} }`;
  const inner = options.slice(1, -1);
  if (inner.trim() === "") return `{ ${name} }`;
  const nl = /^[ \t]*\r?\n([ \t]*)/.exec(inner);
  if (nl) return `{
${nl[1] || `${indent}  `}${name},${inner}}`;
  return `{ ${name}, ${inner.trim()} }`;
}
function patchPrismicClient(src) {
  if (src.startsWith(PATCH_MARK) || src.includes("@cachely/sdk/prismic")) {
    return { status: "already" };
  }
  const imports = [...src.matchAll(IMPORT_RE)];
  if (imports.length !== 1) {
    return {
      status: "complex",
      reason: imports.length === 0 ? "no `import * as prismic` or `import { createClient }` of @prismicio/client" : "more than one import of @prismicio/client"
    };
  }
  if ((src.match(/@prismicio\/client/g) ?? []).length !== 1) {
    return { status: "complex", reason: "other imports of @prismicio/client" };
  }
  const [imp, namespace, alias, quote] = imports[0];
  const at = imports[0].index;
  const rest = src.slice(0, at) + src.slice(at + imp.length);
  const code2 = rest.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^[ \t]*\/\/.*$/gm, "");
  const callee = namespace ? `${namespace}.createClient` : alias ?? "createClient";
  const binding = namespace ?? alias ?? "createClient";
  const word = (re) => new RegExp(`(?<![\\w$.])${re}`, "g");
  const uses = code2.match(word(`${binding.replace(/\$/g, "\\$")}\\b`)) ?? [];
  const calls = [...rest.matchAll(word(`${callee.replace(/[.$]/g, "\\$&")}\\s*\\(`))];
  if (calls.length !== 1 || uses.length !== 1) {
    return {
      status: "complex",
      reason: calls.length === 1 ? `${binding} is used for more than createClient` : `${calls.length} createClient calls (setup patches a single one)`
    };
  }
  const call = calls[0];
  if (call.index < at) return { status: "complex", reason: "createClient before its import" };
  const open2 = call.index + call[0].length - 1;
  const parsed = callArguments(rest, open2);
  if (!parsed || parsed.args.length < 1 || parsed.args.length > 2) {
    return { status: "complex", reason: "createClient's arguments are not (repository, options)" };
  }
  let [repo, options] = parsed.args;
  if (/^["'`]https?:/.test(repo)) {
    const m = ENDPOINT_RE.exec(repo);
    if (!m) return { status: "complex", reason: `an endpoint that is not a repository: ${repo}` };
    repo = `${m[1]}${m[2]}${m[1]}`;
  }
  if (options !== void 0 && !/^(\{[\s\S]*\}|[A-Za-z_$][\w$.]*)$/.test(options)) {
    return { status: "complex", reason: "createClient's options are not an object or a name" };
  }
  const lineStart = rest.lastIndexOf("\n", call.index) + 1;
  const indent = /^[ \t]*/.exec(rest.slice(lineStart))[0];
  const patched = rest.slice(0, call.index) + `createCachelyPrismicClient(${cachelyOptions(repo, options, indent)})` + rest.slice(parsed.close + 1);
  const head = `${PATCH_MARK}: through Cachely when CACHELY_PROXY_URL is set, straight to Prismic when it is not.
import { createCachelyPrismicClient } from ${quote}@cachely/sdk/prismic${quote};
`;
  return { status: "patched", text: rest.slice(0, at) + head + patched.slice(at) };
}
function prismicClientInstructions(file, reason) {
  return `${file} was left alone (${reason}). To send its requests through Cachely, replace
  createClient(repositoryName, options)            from "@prismicio/client"
with
  createCachelyPrismicClient({ repositoryName, ...options })   from "@cachely/sdk/prismic"
(or use the generated composables/useCachelyPrismicClient.ts). Without CACHELY_PROXY_URL it
still talks to Prismic directly with your accessToken.`;
}

// sdk/setup.ts
var CONFIG_FILE = "cachely.config.json";
var ID_FLAGS = {
  "space-id": "spaceId",
  repository: "repository",
  "project-id": "projectId",
  dataset: "dataset",
  "store-domain": "storeDomain",
  "cloud-name": "cloudName",
  "imgix-domain": "imgixDomain",
  region: "region",
  "origin-url": "originUrl",
  "video-origin": "videoOrigin"
};
var SETUP_FLAGS = {
  tenant: "string",
  "custom-domain": "string",
  "proxy-domain": "string",
  provider: "string",
  framework: "string",
  "api-origin": "string",
  "proxy-url": "string",
  "api-hosts": "string",
  "asset-hosts": "string",
  dir: "string",
  ...Object.fromEntries(Object.keys(ID_FLAGS).map((f) => [f, "string"])),
  yes: "bool",
  force: "bool",
  json: "bool",
  help: "bool",
  "dry-run": "bool"
};
var HELP = `usage: cachely <setup|init> [provider] [options]

  setup   detect framework (Next, Nuxt, Vite, plain) and CMS from package.json, write
          ${CONFIG_FILE}, the helper (Next lib/cachely.ts; Nuxt composables/useCachely.ts
          or utils/cachely.ts; others cachely.ts) and CACHELY_PROXY_URL in .env.example
  init    write ${CONFIG_FILE} only; \`init <provider>\` = \`setup <provider>\`
          (\`setup prismic\` runs the Prismic onboarder; on Nuxt it also patches a
          simple app/prismic/client.js when you agree or pass --yes, and prints what
          to change in any other)

options:
  --tenant <slug>           tenant slug (asked when missing on a terminal)
  --custom-domain <host>    a verified custom domain instead of <slug>.<proxy domain>
  --proxy-domain <domain>   your Cachely instance's proxy domain (default cachely.app)
  --provider <kind>         ${PROVIDER_KINDS.join(", ")} (default: detected)
  --space-id, --repository, --project-id, --dataset, --store-domain, --cloud-name,
  --imgix-domain, --region, --origin-url, --video-origin
                            the provider's identifier
  --api-origin <url>        the tenant's API origin when it is not the derived one
  --proxy-url <url>         the tenant host for CACHELY_PROXY_URL (instead of --tenant)
  --api-hosts <h1,h2>       generic providers: API hosts proxied under /~api/
  --asset-hosts <h1,h2>     generic providers: asset hosts rewritten to the tenant host
  --dir <path>              the project directory (default: the current one); setup
                            writes only inside it, never through a symbolic link
  --dry-run                 print every action, write nothing
  --framework <name>        override the detected framework: ${FRAMEWORK_NAMES.join(", ")}
  --yes                     never ask; fail on what is missing (CI); overwrite files
                            setup did not write (never without it). Installs nothing.
  --force                   overwrite an existing ${CONFIG_FILE}
  --json                    print the result as JSON
  --help                    this help

exit codes: 0 ok, 1 failed, 2 usage`;
async function readPackageJson(io) {
  const text = await io.readFile("package.json");
  if (text === null) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new Error("package.json is not valid JSON");
  }
}
async function chooseProvider(run, fallback) {
  const { io, str, interactive } = run;
  let kind = str("provider") ?? fallback;
  if (!kind && interactive) {
    kind = (await io.ask(`CMS (${PROVIDER_KINDS.join(", ")}) [generic]: `)).trim() || "generic";
  }
  kind ??= "generic";
  if (!PROVIDER_KINDS.includes(kind)) {
    throw new UsageError(`Invalid --provider: ${kind} (one of ${PROVIDER_KINDS.join(", ")})`);
  }
  const provider = { cms: kind };
  for (const [flag, field] of Object.entries(ID_FLAGS)) {
    const v = str(flag);
    if (v !== void 0 && PROVIDER_FIELDS[provider.cms].includes(field)) {
      provider[field] = v;
    }
  }
  const first = PROVIDER_FIELDS[provider.cms][0];
  if (first && !provider[first] && interactive && provider.cms !== "storyblok") {
    const v = (await io.ask(`${provider.cms} ${String(first)}: `)).trim();
    if (v) provider[first] = v;
  }
  return provider;
}
async function resolveConfig(run, provider, framework) {
  const { io, str, command } = run;
  let tenant = str("tenant");
  const customDomain = str("custom-domain");
  const proxyUrl = str("proxy-url");
  if (!tenant && !customDomain && !proxyUrl) {
    if (!run.interactive) {
      throw new UsageError("Missing --tenant (or --custom-domain, --proxy-url)");
    }
    tenant = (await io.ask("Cachely tenant slug: ")).trim();
  }
  const target = proxyUrl && !tenant && !customDomain ? { tenantOrigin: proxyUrl } : { tenant, customDomain, proxyDomain: str("proxy-domain") };
  const hostList = (flag) => str(flag)?.split(",").map((h) => h.trim()).filter(Boolean);
  let origin;
  let hosts = genericHosts(provider);
  try {
    origin = resolveTenantOrigin(`cachely ${command}`, target);
    resolveProvider(provider, {
      fn: `cachely ${command}`,
      apiOrigin: str("api-origin")
    });
    const apiHosts = hostList("api-hosts");
    const assetHosts = hostList("asset-hosts");
    if (apiHosts || assetHosts) {
      createGenericProvider({ id: provider.cms, apiHosts, assetHosts });
      hosts = {
        apiHosts: apiHosts ?? hosts.apiHosts,
        assetHosts: assetHosts ?? hosts.assetHosts
      };
    }
  } catch (e) {
    throw new UsageError(
      e.message.replace(
        /invalid option (api|asset)Hosts(\[\d+\])?/,
        "invalid option --$1-hosts$2"
      ).replace("invalid option tenantOrigin", "invalid option --proxy-url")
    );
  }
  const config = {
    ...customDomain ? { customDomain } : tenant ? { tenant } : { proxyUrl: origin },
    ...target.proxyDomain && !customDomain ? { proxyDomain: target.proxyDomain } : {},
    provider,
    ...str("api-origin") ? { apiOrigin: str("api-origin") } : {},
    framework,
    sdkVersion: run.sdkVersion
  };
  return { config, origin, hosts };
}
async function codeActions(run, config, origin, hosts, dryRun) {
  const { io, flags } = run;
  const { provider, framework } = config;
  const actions = [];
  const skipped = [];
  let prismicClient = null;
  const hasUtils = await io.isDir?.("utils") ?? false;
  const file = helperPath(framework, hasUtils, provider.cms === "prismic");
  const existing = await io.readFile(file);
  if (existing !== null && !existing.startsWith(GENERATED_MARK) && !flags.yes) {
    skipped.push(file);
  } else {
    actions.push({
      file,
      text: helperCode(provider, framework, hasUtils, run.sdkVersion, hosts),
      what: existing === null ? "write" : "overwrite"
    });
  }
  if (provider.cms === "prismic" && framework === "nuxt") {
    prismicClient = await nuxtPrismicClient(io, {
      yes: flags.yes === true,
      ask: run.interactive && !dryRun
    });
    if (prismicClient?.text) {
      actions.push({ file: prismicClient.file, text: prismicClient.text, what: "patch" });
    }
  }
  const variable = proxyUrlVariable(framework);
  const env = envExampleWith(await io.readFile(".env.example"), origin, variable);
  if (env !== null) {
    actions.push({ file: ".env.example", text: env, what: `add ${variable} to` });
  }
  return { actions, skipped, prismicClient };
}
function printDryRun(io, actions, skipped, prismicClient) {
  for (const a of actions) io.out(`would ${a.what} ${a.file}`);
  for (const f of skipped) io.out(`would leave ${f} alone (not written by setup; --yes)`);
  if (prismicClient && !prismicClient.text) {
    io.out(`would leave ${prismicClient.file} alone (${prismicClient.reason})`);
  }
  io.out("would install nothing (npm install @cachely/sdk is yours to run)");
}
function nextSteps(changes, sdkVersion) {
  return `
1. Install (setup installs nothing): npm install <Cachely URL>/sdk/cachely-sdk-${sdkVersion}.tgz
   (your Cachely instance serves it; the tenant's Overview shows the whole command)

2. Env (.env / your host's settings):
${changes.env.map((l) => `   ${l}`).join("\n")}${changes.removeEnv.length ? `
   remove from anything the browser sees: ${changes.removeEnv.join(", ")}
   (store the token on the tenant instead: Cachely dashboard \u2192 API proxy)` : ""}

3. Code (${changes.file}):

${changes.code}
`;
}
async function runSetup(argv2, io, sdkVersion) {
  let parsed;
  try {
    parsed = parseArgs(argv2, SETUP_FLAGS);
  } catch (e) {
    io.err(`${e.message}

${HELP}`);
    return 2;
  }
  const { flags, positionals } = parsed;
  const command = positionals[0];
  if (flags.help || command === "help") {
    io.out(HELP);
    return 0;
  }
  if (command !== "setup" && command !== "init") {
    io.err(`${command ? `Unknown command: ${command}` : "Missing command"}

${HELP}`);
    return 2;
  }
  const positionalProvider = positionals[1];
  const writesCode = command === "setup" || positionalProvider !== void 0;
  const dryRun = flags["dry-run"] === true;
  const run = {
    io,
    command,
    flags,
    str: (k) => typeof flags[k] === "string" ? flags[k] : void 0,
    interactive: io.interactive && !flags.yes,
    sdkVersion
  };
  try {
    if (!flags.force && await io.readFile(CONFIG_FILE) !== null) {
      throw new UsageError(`${CONFIG_FILE} exists: pass --force to overwrite it`);
    }
    const detected = detectProject(await readPackageJson(io));
    const framework = run.str("framework") ?? detected.framework;
    if (!isFramework(framework)) {
      throw new UsageError(
        `Invalid --framework: ${framework} (one of ${FRAMEWORK_NAMES.join(", ")})`
      );
    }
    const provider = await chooseProvider(
      run,
      positionalProvider ?? detected.provider ?? void 0
    );
    const { config, origin, hosts } = await resolveConfig(run, provider, framework);
    const code2 = writesCode ? await codeActions(run, config, origin, hosts, dryRun) : { actions: [], skipped: [], prismicClient: null };
    const { skipped, prismicClient } = code2;
    const actions = [
      { file: CONFIG_FILE, text: JSON.stringify(config, null, 2) + "\n", what: "write" },
      ...code2.actions
    ];
    for (const a of actions) await io.checkWrite?.(a.file);
    if (dryRun) {
      printDryRun(io, actions, skipped, prismicClient);
      return 0;
    }
    for (const a of actions) await io.writeFile(a.file, a.text);
    for (const f of skipped) io.err(`Left ${f} alone: setup did not write it (--yes overwrites)`);
    const clientNote = prismicClient?.text ? null : prismicClient;
    const changes = command === "setup" ? setupChanges(config) : null;
    if (flags.json) {
      const client = prismicClient && {
        file: prismicClient.file,
        patched: prismicClient.text !== void 0,
        reason: prismicClient.reason
      };
      const report = {
        ok: true,
        file: CONFIG_FILE,
        config,
        tenantOrigin: origin,
        detected,
        changes
      };
      io.out(JSON.stringify({ ...report, ...client ? { prismicClient: client } : {} }, null, 2));
      return 0;
    }
    io.out(`Wrote ${CONFIG_FILE} (tenant host ${origin}, ${provider.cms}, ${framework})`);
    for (const a of actions.slice(1)) {
      io.out(`${a.what === "patch" ? "Patched" : "Wrote"} ${a.file}`);
    }
    if (clientNote?.instructions) {
      io.out(prismicClientInstructions(clientNote.file, clientNote.reason));
    }
    if (changes) io.out(nextSteps(changes, sdkVersion));
    return 0;
  } catch (e) {
    io.err(`Error: ${e.message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}
async function nuxtPrismicClient(io, consent) {
  for (const file of NUXT_PRISMIC_CLIENT_FILES) {
    const text = await io.readFile(file);
    if (text === null) continue;
    const patch = patchPrismicClient(text);
    if (patch.status === "already") return { file, reason: "it already uses Cachely" };
    if (patch.status === "complex") return { file, reason: patch.reason, instructions: true };
    const yes = consent.yes || consent.ask && /^(y|yes|)$/i.test((await io.ask(`Patch ${file} to go through Cachely? [Y/n] `)).trim());
    if (yes) return { file, text: patch.text };
    return { file, reason: "setup did not write it; --yes patches it", instructions: true };
  }
  return null;
}

// sdk/setup_fs.ts
import { constants, lstat, mkdir, open, readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
async function projectFiles(dir2) {
  const root = await realpath(dir2);
  const refuse = (name, why) => new Error(
    `Refusing to write ${name}: ${why} (setup writes only inside --dir, never through a link)`
  );
  async function checkWrite(name) {
    const rel = relative(root, resolve(root, name));
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw refuse(name, "outside --dir");
    const parts = rel.split(/[\\/]/);
    for (let i = 1; i <= parts.length; i++) {
      const shown = parts.slice(0, i).join("/");
      const info = await lstat(join(root, ...parts.slice(0, i))).catch((e) => {
        if (e.code === "ENOENT") return null;
        throw e;
      });
      if (info === null) return;
      if (info.isSymbolicLink()) throw refuse(name, `${shown} is a symbolic link`);
    }
  }
  return {
    readFile: (name) => readFile(join(root, name), "utf8").catch(() => null),
    checkWrite,
    async writeFile(name, text) {
      await checkWrite(name);
      const path = join(root, name);
      await mkdir(dirname(path), { recursive: true });
      const noFollow = constants.O_NOFOLLOW ?? 0;
      const fh = await open(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | noFollow,
        420
      ).catch((e) => {
        if (e.code === "ELOOP") {
          throw refuse(name, `${name} is a symbolic link`);
        }
        throw e;
      });
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
    },
    isDir: (name) => stat(join(root, name)).then((s) => s.isDirectory(), () => false)
  };
}

// sdk/legacy_transform.ts
var PRISMIC_ANY = ["images.prismic.io", "prismic-io.imgix.net"].map((host) => ({ host, path: "", clean: "" }));
var CONTENTFUL_ANY = ["images", "videos", "assets", "downloads"].map((sub) => ({ host: `${sub}.ctfassets.net`, path: "[A-Za-z0-9]+", clean: "" }));

// sdk/mod.ts
var VERSION = "0.14.0";

// sdk/bin.ts
var argv = process2.argv.slice(2);
var dirFlag = (() => {
  try {
    return parseArgs(argv, SETUP_FLAGS).flags.dir;
  } catch {
    return void 0;
  }
})();
var dir = dirFlag ?? process2.cwd();
if (dirFlag !== void 0 && !await stat2(dir).then((s) => s.isDirectory(), () => false)) {
  process2.stderr.write(`Error: Invalid --dir: ${dir} is not a directory
`);
  process2.exit(2);
}
var rl = process2.stdin.isTTY ? createInterface({ input: process2.stdin, output: process2.stderr }) : null;
var code = await runSetup(argv, {
  out: (t) => process2.stdout.write(t + "\n"),
  err: (t) => process2.stderr.write(t + "\n"),
  ...await projectFiles(dir),
  interactive: rl !== null,
  ask: (q) => rl.question(q)
}, VERSION);
rl?.close();
process2.exitCode = code;
