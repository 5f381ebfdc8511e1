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

// sdk/entities/types.ts
var MAX_ANSWER_TAGS = 256;
var MAX_NOTICE_IDS = 100;
var MAX_ENTITY_NAME = 200;
function usableName(v) {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_ENTITY_NAME && /^[\x21-\x7e]+$/.test(v) && !v.includes(",");
}
function record(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : null;
}
function collectIds(body, pick) {
  const ids = /* @__PURE__ */ new Set();
  let wide = false;
  let budget = 2e5;
  const stack = [body];
  while (stack.length > 0) {
    if (--budget < 0) return { ids: [...ids], wide: true };
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    const o = v;
    for (const id of pick(o) ?? []) {
      if (typeof id === "number" && Number.isSafeInteger(id)) ids.add(String(id));
      else if (usableName(id)) ids.add(id);
      else if (id !== void 0 && id !== null) wide = true;
    }
    if (ids.size > MAX_ANSWER_TAGS) return { ids: [...ids], wide: true };
    for (const k in o) {
      const c = o[k];
      if (c !== null && typeof c === "object") stack.push(c);
    }
  }
  return { ids: [...ids], wide };
}
function answerOf(found, types, list, complete = false) {
  const ok = types.filter(usableName);
  const wide = found.wide || ok.length !== types.length || found.ids.length + ok.length > MAX_ANSWER_TAGS;
  return { ids: found.ids, types: ok, list, wide, complete: complete && !wide && ok.length > 0 };
}
function noticeOf(action, rawIds, types, revisions = {}) {
  const ids = [
    ...new Set(
      rawIds.map((v) => typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v).filter(usableName)
    )
  ];
  if (ids.length === 0) return { reason: "the payload names no entity id" };
  if (ids.length > MAX_NOTICE_IDS) {
    return { reason: `the payload names ${ids.length} ids, more than ${MAX_NOTICE_IDS}` };
  }
  const t = types === null ? null : [...new Set(types.filter(usableName))];
  const revs = {};
  for (const id of ids) {
    const r = revisions[id];
    if (typeof r === "number" && Number.isFinite(r) || usableName(r)) revs[id] = r;
  }
  return { action, ids, types: t !== null && t.length > 0 ? t : null, revisions: revs };
}

// sdk/providers/draft_query.ts
var MAX_DECODE_ROUNDS = 4;
function decodeFully(s) {
  let cur = s;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    let next = cur.replace(/\+/g, " ");
    try {
      next = decodeURIComponent(next);
    } catch {
      next = next.replace(/%([0-9a-f]{2})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}
function shown(p) {
  return decodeFully(p.raw).trim() || p.name;
}

// sdk/providers/shared.ts
var HOSTNAME_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
function isHostname(value) {
  return HOSTNAME_RE.test(value);
}
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
function hostOf(origin2) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin2);
  if (!m) throw new TypeError(`Invalid origin: ${origin2}`);
  return m[1].toLowerCase();
}
function segments(path) {
  return path.slice(1).split("/");
}
var NO_ROUTES = { route: () => null };
var DEFAULT_IMAGE_HOST = "https://res.cloudinary.com";
var DEFAULT_IMAGE_API = "https://api.cloudinary.com";
var CLASS_BY_EXT = {};
for (const e of "jpg jpeg png webp avif gif svg bmp ico tif tiff heic heif jxl".split(" ")) {
  CLASS_BY_EXT[e] = "image";
}
for (const e of "mp4 webm mov m4v ogv mkv m3u8 mpd".split(" ")) CLASS_BY_EXT[e] = "video";
for (const e of "mp3 wav ogg oga m4a aac flac opus weba".split(" ")) CLASS_BY_EXT[e] = "audio";
for (const e of "woff woff2 ttf otf eot".split(" ")) CLASS_BY_EXT[e] = "font";
CLASS_BY_EXT.pdf = "document";
function fileClassOf(path) {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash) return "other";
  return CLASS_BY_EXT[path.slice(dot + 1).toLowerCase()] ?? "other";
}
function bodyField(body, name) {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const v = body[name];
    if (typeof v === "string" && v.length > 0) return v.slice(0, 200);
  }
  return null;
}

// sdk/providers/contentful.ts
var CONTENTFUL_ASSET_TYPE = "~asset";
var ACTIONS = {
  publish: "publish",
  unpublish: "unpublish",
  archive: "unpublish",
  delete: "delete"
};
var UNFILTERED = /* @__PURE__ */ new Set(["content_type", "order", "limit", "include", "locale", "select"]);
function wholeList(params, body) {
  for (const [k, v] of params) if (!UNFILTERED.has(k) && !(k === "skip" && v === "0")) return false;
  const b = record(body);
  return typeof b?.total === "number" && typeof b.limit === "number" && b.total <= b.limit;
}
var GRAPHQL_PREVIEW = /\bpreview\s*:\s*true\b/i;
function draftCheck(_path, pairs) {
  for (const pair of pairs) {
    if (GRAPHQL_PREVIEW.test(pair.value)) {
      return {
        param: shown(pair),
        message: `${shown(pair)} asks for preview content: not served to visitors`
      };
    }
  }
  return null;
}
var HOSTS = ["images", "videos", "assets", "downloads"];
var contentful = {
  kind: "contentful",
  label: "Contentful",
  fields: {
    spaceId: {
      rule: { re: /^[a-z0-9]{4,64}$/, message: "must be a Contentful space ID (4-64 of a-z, 0-9)" },
      label: "Space ID",
      hint: "Settings \u2192 General settings",
      placeholder: "abc123xyz"
    }
  },
  required: [],
  sdkRequired: ["spaceId"],
  origins(cfg) {
    const s = cfg.spaceId;
    if (!s) return { api: null, assets: [] };
    return {
      api: `https://cdn.contentful.com/spaces/${s}`,
      assets: HOSTS.map((sub) => ({ role: sub, url: `https://${sub}.ctfassets.net/${s}` }))
    };
  },
  sources(cfg) {
    const s = cfg.spaceId;
    if (!s) return [];
    return HOSTS.map((sub) => ({ host: `${sub}.ctfassets.net`, path: escapePathLiteral(s), clean: "" }));
  },
  /** `/<asset id>/<token>/<file name>`, split by file class over its three hosts. */
  routes(cfg) {
    const s = cfg.spaceId;
    if (!s) return NO_ROUTES;
    return {
      route(path) {
        const segs = segments(path);
        if (segs.length < 3 || segs[segs.length - 1] === "") return null;
        const cls = fileClassOf(path);
        if (cls === "image") {
          return {
            origin: `https://images.ctfassets.net/${s}`,
            path,
            query: "keep",
            role: "images"
          };
        }
        if (cls === "video") {
          return {
            origin: `https://videos.ctfassets.net/${s}`,
            path,
            query: "drop",
            role: "videos"
          };
        }
        return { origin: `https://assets.ctfassets.net/${s}`, path, query: "drop", role: "assets" };
      }
    };
  },
  samplePath: "/5mPbW2dyZ1OLjbMOKSqwmk/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d/hero.jpg?w=800&fm=webp",
  upstream: {
    assetHosts: [
      "images.ctfassets.net",
      "assets.ctfassets.net",
      "videos.ctfassets.net",
      "downloads.ctfassets.net"
    ],
    defaultApiOrigin: "https://cdn.contentful.com",
    defaultAuthMode: "bearer"
  },
  webhook: {
    eventType: (headers, body) => headers.get("x-contentful-topic")?.slice(0, 200) ?? bodyField(body, "type") ?? null
  },
  entities: {
    answer(path, params, body) {
      const found = collectIds(body, (o) => {
        const sys = record(o.sys);
        return sys && (sys.type === "Entry" || sys.type === "Asset") ? [sys.id] : null;
      });
      const assets = /\/assets\/?$/.test(path);
      const list = assets || /\/entries\/?$/.test(path);
      const ct = params.get("content_type");
      const types = assets ? [CONTENTFUL_ASSET_TYPE] : ct ? [ct] : [];
      return answerOf(found, types, list, list && wholeList(params, body));
    },
    notice(headers, body) {
      const topic = headers.get("x-contentful-topic") ?? "";
      const [, kind = "", verb = ""] = topic.split(".");
      if (!/^(Deleted)?(Entry|Asset)$/.test(kind)) {
        return { reason: `topic "${topic.slice(0, 80)}" names no entry or asset` };
      }
      const sys = record(record(body)?.sys);
      if (!sys) return { reason: "the payload has no sys" };
      const id = sys.id;
      const revision = sys.revision;
      const asset = kind.endsWith("Asset");
      const ct = record(record(sys.contentType)?.sys)?.id;
      const types = asset ? [CONTENTFUL_ASSET_TYPE] : typeof ct === "string" ? [ct] : null;
      const revisions = {};
      if (typeof id === "string" && typeof revision === "number") revisions[id] = revision;
      return noticeOf(
        ACTIONS[verb] ?? "change",
        typeof id === "string" ? [id] : [],
        types,
        revisions
      );
    },
    revisionOf(o) {
      const sys = record(o.sys);
      if (!sys || sys.type !== "Entry" && sys.type !== "Asset") return null;
      return typeof sys.id === "string" && typeof sys.revision === "number" ? [sys.id, sys.revision] : null;
    }
  },
  drafts: {
    switches: [
      {
        name: "API host preview.contentful.com (the Preview API)",
        visitor: "403: a tenant whose API origin is the Preview API answers visitors nothing",
        preview: "the tenant's preview token on preview.contentful.com"
      },
      { name: "GraphQL `preview: true`", visitor: "400", preview: "allowed" }
    ],
    apiHost: /(^|\.)contentful\.com$/,
    previewHosts: ["preview.contentful.com"],
    check: draftCheck,
    published: [],
    refParam: null
  },
  // Contentful's usage limits (Lite plan, 2025): extra asset bandwidth 0.15 USD per GB.
  bandwidthUsdPerGb: 0.15,
  demo: {
    provider: { cms: "contentful", spaceId: "demo0space" },
    apiOrigin: "https://cdn.contentful.com/spaces/demo0space",
    path: "/environments/master/entries?content_type=blogPost&limit=2",
    body: {
      sys: { type: "Array" },
      total: 2,
      skip: 0,
      limit: 2,
      items: [
        {
          sys: { id: "4BqrajvA8E6qwgkieoqmqO", type: "Entry" },
          fields: {
            title: "Static sites are dead, long live static sites",
            heroImage: {
              url: "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg"
            }
          }
        },
        {
          sys: { id: "31TNnjHlfaGUoMOwGGQMmW", type: "Entry" },
          fields: {
            title: "Hello world",
            heroImage: {
              url: "https://images.ctfassets.net/demo0space/4NzwDSDlGECGIiokKomsyI/5d2a6b3e0a/hello.png"
            }
          }
        }
      ]
    },
    assetUrl: "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg"
  },
  setup: {
    packages: ["contentful", "@contentful/rich-text-react-renderer"],
    envName: "CONTENTFUL_SPACE_ID",
    secrets: ["CONTENTFUL_ACCESS_TOKEN", "CONTENTFUL_DELIVERY_TOKEN"],
    snippet: (idExpr, t) => `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

// Replaces createClient({ space, accessToken }): no token in the browser any more.
export const contentful = createClient(
  createContentfulCachelyAdapter({ space: ${idExpr}, ${t} }),
);`,
    helper: ({ cfg, nuxt, hasUtilsDir, variable, envRead: envRead2 }) => `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

export const contentful = createClient(
  createContentfulCachelyAdapter({
    space: ${JSON.stringify(cfg.spaceId ?? "")},
    accessToken: ${envRead2("CONTENTFUL_ACCESS_TOKEN")}, // used only without ${variable}
  }),
);
${nuxt ? `
export const ${hasUtilsDir ? "cachelyContentful" : "useCachely"} = () => contentful;
` : ""}`
  },
  sdk: {
    builtIn: true,
    hostSources: (host) => host.endsWith(".ctfassets.net") ? [{ host, path: "[A-Za-z0-9]+", clean: "" }] : null
  }
};

// sdk/providers/prismic.ts
var AT = /(?:at|any)\(\s*document\.type\s*,\s*(\[[^\]]{0,2000}\]|"[^"]{1,200}")/g;
var QUOTED = /"([^"]{1,200})"/g;
function prismicTypes(qs) {
  const out = /* @__PURE__ */ new Set();
  for (const q of qs) {
    for (const m of q.matchAll(AT)) for (const t of m[1].matchAll(QUOTED)) out.add(t[1]);
  }
  return [...out];
}
var API_HOST = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.(?:cdn\.)?prismic\.io$/;
var prismic = {
  kind: "prismic",
  label: "Prismic",
  fields: {
    repository: {
      rule: {
        re: /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
        message: "must be a Prismic repository name (a-z, 0-9 and -)"
      },
      label: "Repository",
      hint: "from <repo>.prismic.io",
      placeholder: "my-repo"
    }
  },
  required: [],
  sdkRequired: ["repository"],
  origins(cfg) {
    const r = cfg.repository;
    if (!r) return { api: null, assets: [] };
    return {
      api: `https://${r}.cdn.prismic.io/api/v2`,
      assets: [
        { role: "images", url: `https://images.prismic.io/${r}` },
        { role: "files", url: `https://${r}.cdn.prismic.io/${r}` }
      ]
    };
  },
  sources(cfg) {
    const r = cfg.repository;
    if (!r) return [];
    const keep = `/${r}`;
    return [
      { host: "images.prismic.io", path: escapePathLiteral(r), clean: keep },
      { host: `${r}.cdn.prismic.io`, path: escapePathLiteral(r), clean: keep },
      { host: "prismic-io.imgix.net", path: escapePathLiteral(r), clean: keep },
      { host: "prismic-io.s3.amazonaws.com", path: escapePathLiteral(r), clean: keep }
    ];
  },
  /** `/<repository>/...`; images from images.prismic.io, other files from the repo CDN. */
  routes(cfg) {
    const r = cfg.repository;
    if (!r) return NO_ROUTES;
    const prefix = `/${r}/`;
    return {
      route(path) {
        if (!path.startsWith(prefix) || path.length === prefix.length) return null;
        if (fileClassOf(path) === "image") {
          return { origin: "https://images.prismic.io", path, query: "keep", role: "images" };
        }
        return { origin: `https://${r}.cdn.prismic.io`, path, query: "keep", role: "files" };
      }
    };
  },
  samplePath: "/a1b2c3d4_hero.png?auto=format,compress&w=800",
  upstream: {
    assetHosts: ["images.prismic.io", "prismic-io.s3.amazonaws.com"],
    defaultApiOrigin: null,
    // https://<repo>.cdn.prismic.io, repository-specific
    defaultAuthMode: "query",
    defaultAuthParam: "access_token"
  },
  entities: {
    answer(path, params, body) {
      const found = collectIds(
        body,
        (o) => typeof o.id === "string" && typeof o.type === "string" && (o.link_type === "Document" || "last_publication_date" in o) ? [o.id] : null
      );
      const list = /\/documents\/search\/?$/.test(path);
      return answerOf(found, prismicTypes(params.getAll("q")), list);
    },
    notice(_headers, body) {
      const b = record(body);
      if (!b) return { reason: "the payload is not a JSON object" };
      const docs = Array.isArray(b.documents) ? b.documents : [];
      return noticeOf("publish", docs, null);
    }
  },
  drafts: {
    switches: [
      {
        name: "ref",
        visitor: "400 unless a master ref (read from the API root, cached; a recent master ref stays valid); preview and release refs are refused",
        preview: "any ref, including the `io.prismic.preview` cookie's"
      }
    ],
    apiHost: /(^|\.)prismic\.io$/,
    previewHosts: [],
    check: () => null,
    published: [],
    refParam: "ref"
  },
  preview: {
    cookieRef(cookie) {
      const m = /(?:^|;\s*)io\.prismic\.preview=([^;]*)/.exec(cookie);
      if (!m) return null;
      try {
        return ["ref", decodeURIComponent(m[1])];
      } catch {
        return null;
      }
    }
  },
  // Prismic: CDN bandwidth over a paid plan's allowance, 0.10 USD per GB.
  bandwidthUsdPerGb: 0.1,
  demo: {
    provider: { cms: "prismic", repository: "demo-repo" },
    apiOrigin: "https://demo-repo.cdn.prismic.io/api/v2",
    path: "/documents/search?ref=ZZdemoRef&q=%5B%5Bat(document.type%2C%22article%22)%5D%5D",
    body: {
      page: 1,
      results_per_page: 20,
      total_results_size: 2,
      results: [
        {
          id: "ZXdemo1",
          type: "article",
          uid: "edge-caching",
          data: {
            title: [{ type: "heading1", text: "Edge caching explained" }],
            cover: { url: "https://images.prismic.io/demo-repo/abc123_cover.jpg?auto=format" },
            body: [{
              type: "paragraph",
              text: "Download the report",
              spans: [{
                type: "hyperlink",
                data: { url: "https://demo-repo.cdn.prismic.io/demo-repo/xyz789_report.pdf" }
              }]
            }]
          }
        },
        {
          id: "ZXdemo2",
          type: "article",
          uid: "slices",
          data: {
            title: [{ type: "heading1", text: "Building with slices" }],
            cover: { url: "https://images.prismic.io/demo-repo/def456_slices.png?auto=format" }
          }
        }
      ]
    },
    assetUrl: "https://images.prismic.io/demo-repo/abc123_cover.jpg?auto=format"
  },
  setup: {
    packages: [
      "@prismicio/client",
      "@prismicio/next",
      "@prismicio/react",
      "@prismicio/vue",
      "@nuxtjs/prismic"
    ],
    envName: "PRISMIC_REPOSITORY",
    secrets: ["PRISMIC_ACCESS_TOKEN"],
    snippet: (idExpr, t) => `import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

// Replaces prismic.createClient(repositoryName, { accessToken }).
export const prismic = createCachelyPrismicClient({ repositoryName: ${idExpr}, ${t} });`,
    helper({ cfg, nuxt, variable, envRead: envRead2 }) {
      const name = nuxt ? "useCachelyPrismicClient" : "prismic";
      const client = `createCachelyPrismicClient({
    repositoryName: ${JSON.stringify(cfg.repository ?? "")},
    accessToken: ${envRead2("PRISMIC_ACCESS_TOKEN")}, // used only without ${variable}
  })`;
      return `import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

export const ${name} = ${nuxt ? `() =>
  ${client}` : client};
`;
    },
    nuxtComposable: "composables/useCachelyPrismicClient.ts"
  },
  sdk: {
    builtIn: true,
    identifierFromApiUrl(url) {
      const m = API_HOST.exec(url.hostname);
      if (!m || url.protocol !== "https:" || !/^\/api\/v2(\/|$)/.test(url.pathname)) return null;
      return m[1];
    }
  }
};

// sdk/providers/sanity.ts
var TYPE_EQ = /_type\s*==\s*(["'])([^"']{1,200})\1/g;
var TYPE_IN = /_type\s+in\s*\[([^\]]{1,2000})\]/g;
var QUOTED2 = /(["'])([^"']{1,200})\1/g;
function groqTypes(query) {
  const out = /* @__PURE__ */ new Set();
  for (const m of query.matchAll(TYPE_EQ)) out.add(m[2]);
  for (const m of query.matchAll(TYPE_IN)) for (const q of m[1].matchAll(QUOTED2)) out.add(q[2]);
  return [...out];
}
var published = (id) => typeof id === "string" && !id.startsWith("drafts.") && !id.startsWith("versions.");
var DRAFT_ID = /drafts\.|versions\./i;
var EXCLUDE_DRAFTS = /!\s*\(\s*_id\s+in\s+path\s*\(\s*(["'])drafts\.\*\*\1\s*\)\s*\)/gi;
var VERSION_FUNCTIONS = /sanity::(versionof|partofrelease)/i;
var FIRST_PERSPECTIVE_VERSION = "2021-03-25";
var SANITY_ALL_STATES = /\/data\/(export|history|listen)(\/|$)/i;
function draftCheck2(path, pairs) {
  const p = decodeFully(path);
  if (DRAFT_ID.test(p)) {
    return {
      param: "path",
      message: "Draft and version document ids (drafts.\u2026, versions.\u2026) are not served to visitors"
    };
  }
  const version = /^\/v(\d{4}-\d{2}-\d{2}|\d+)(?:\/|$)/i.exec(p)?.[1];
  if (version !== void 0 && (!version.includes("-") || version < FIRST_PERSPECTIVE_VERSION)) {
    return {
      param: "path",
      message: `Sanity API v${version} cannot be limited to published documents: use API version v${FIRST_PERSPECTIVE_VERSION} or later`
    };
  }
  if (SANITY_ALL_STATES.test(p)) {
    return { param: "path", message: "Export, history and listen read drafts: not for visitors" };
  }
  for (const pair of pairs) {
    if (pair.name === "perspective" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `perspective=${pair.value || "(empty)"} reads unpublished content: visitors get perspective=published only (a preview link allows drafts)`
      };
    }
    const text = `${pair.name}=${pair.value}`.replace(EXCLUDE_DRAFTS, "");
    if (DRAFT_ID.test(text) || VERSION_FUNCTIONS.test(text)) {
      return {
        param: shown(pair),
        message: `${shown(pair)} reads draft or version documents (drafts.\u2026, versions.\u2026): not served to visitors (a preview link allows it)`
      };
    }
  }
  return null;
}
var sanity = {
  kind: "sanity",
  label: "Sanity",
  fields: {
    projectId: {
      rule: { re: /^[a-z0-9]{1,64}$/, message: "must be a Sanity project ID (a-z, 0-9)" },
      label: "Project ID",
      hint: "sanity.io/manage",
      placeholder: "p1x2y3z4"
    },
    dataset: {
      rule: {
        re: /^[a-z0-9][a-z0-9_-]{0,63}$/,
        message: "must be a Sanity dataset name (a-z, 0-9, _ and -)"
      },
      label: "Dataset",
      hint: "default production",
      placeholder: "production"
    }
  },
  required: [],
  sdkRequired: ["projectId"],
  origins(cfg) {
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
  },
  sources(cfg) {
    const p = cfg.projectId;
    if (!p) return [];
    const d = cfg.dataset || "production";
    return [
      { host: "cdn.sanity.io", path: `images/${escapePathLiteral(p)}/${escapePathLiteral(d)}`, clean: "" },
      { host: "cdn.sanity.io", path: `files/${escapePathLiteral(p)}/${escapePathLiteral(d)}`, clean: "" }
    ];
  },
  /** One segment `<asset id>[-<w>x<h>].<ext>`, images or files of the project's dataset. */
  routes(cfg) {
    const p = cfg.projectId;
    if (!p) return NO_ROUTES;
    const d = cfg.dataset || "production";
    return {
      route(path) {
        if (!/^\/[A-Za-z0-9_-]+\.[A-Za-z0-9]+$/.test(path)) return null;
        if (fileClassOf(path) === "image") {
          return {
            origin: `https://cdn.sanity.io/images/${p}/${d}`,
            path,
            query: "keep",
            role: "images"
          };
        }
        return {
          origin: `https://cdn.sanity.io/files/${p}/${d}`,
          path,
          query: "drop",
          role: "files"
        };
      }
    };
  },
  samplePath: "/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d3e4f5a6b-1200x800.jpg?w=800",
  upstream: {
    assetHosts: ["cdn.sanity.io"],
    defaultApiOrigin: null,
    // https://<projectId>.apicdn.sanity.io, project-specific
    defaultAuthMode: "bearer"
  },
  viewDefaults: (cfg) => cfg.projectId ? { dataset: cfg.dataset ?? "production" } : {},
  webhook: {
    eventType: (headers, body) => bodyField(body, "type") ?? headers.get("sanity-operation")?.slice(0, 200) ?? bodyField(body, "event")
  },
  entities: {
    answer(path, params, body) {
      const found = collectIds(body, (o) => typeof o._id === "string" ? [o._id] : null);
      const query = params.get("query");
      const list = query !== null;
      return answerOf(found, query ? groqTypes(query) : [], list && !/\/data\/doc\//.test(path));
    },
    notice(headers, body) {
      const b = record(body);
      if (!b) return { reason: "the payload is not a JSON object" };
      const op = headers.get("sanity-operation") ?? "";
      const legacy = record(b.ids);
      if (legacy) {
        const all = Array.isArray(legacy.all) ? legacy.all : [];
        return noticeOf("change", all.filter(published), null);
      }
      if (!published(b._id)) {
        return { reason: typeof b._id === "string" ? "a draft changed" : "the payload has no _id" };
      }
      const id = b._id;
      const revisions = {};
      if (typeof b._updatedAt === "string") revisions[id] = b._updatedAt;
      const action = op === "delete" ? "delete" : op === "create" || op === "update" ? "publish" : "change";
      return noticeOf(action, [id], typeof b._type === "string" ? [b._type] : null, revisions);
    },
    revisionOf(o) {
      return typeof o._id === "string" && typeof o._updatedAt === "string" ? [o._id, o._updatedAt] : null;
    }
  },
  drafts: {
    switches: [
      {
        name: "perspective",
        visitor: "400 unless `published`; added as `perspective=published` when absent (API versions before 2025-02-19 default to `raw`, which includes drafts)",
        preview: "any (`drafts`, `raw`, `previewDrafts`, release ids)"
      },
      {
        name: "GROQ and $params naming `drafts.` / `versions.` ids, sanity::versionOf / partOfRelease",
        visitor: '400 naming the parameter (`!(_id in path("drafts.**"))` is allowed)',
        preview: "allowed"
      },
      {
        name: "path: draft ids, API v1 or before v2021-03-25, /data/export, /data/history, /data/listen",
        visitor: "400 (`path`)",
        preview: "allowed"
      }
    ],
    apiHost: /(^|\.)(api|apicdn)\.sanity\.io$/,
    previewHosts: [],
    check: draftCheck2,
    published: [["perspective", "published"]],
    refParam: null
  },
  preview: { defaultSwitch: ["perspective", "drafts"] },
  demo: {
    provider: { cms: "sanity", projectId: "demo0proj", dataset: "production" },
    apiOrigin: "https://demo0proj.apicdn.sanity.io",
    path: "/v2021-10-21/data/query/production?query=*%5B_type%3D%3D%22post%22%5D%5B0..1%5D",
    body: {
      ms: 4,
      query: '*[_type=="post"][0..1]',
      result: [
        {
          _id: "a1b2c3d4-post-1",
          _type: "post",
          title: "Designing for the edge",
          mainImage: {
            url: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg"
          }
        },
        {
          _id: "e5f6a7b8-post-2",
          _type: "post",
          title: "Structured content 101",
          mainImage: {
            url: "https://cdn.sanity.io/images/demo0proj/production/9f8e7d6c5b4a-1600x900.png"
          }
        }
      ]
    },
    assetUrl: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg"
  },
  setup: {
    packages: ["@sanity/client", "next-sanity", "@sanity/image-url"],
    envName: "SANITY_PROJECT_ID",
    secrets: ["SANITY_API_TOKEN", "SANITY_TOKEN"]
  },
  sdk: {
    hostSources: (host) => host === "cdn.sanity.io" ? [{ host, path: "(?:images|files)/[a-z0-9]+/[a-z0-9_-]+", clean: "" }] : null
  }
};

// sdk/providers/shopify.ts
function storeSources(st) {
  return [
    { host: st, path: "cdn/shop", clean: "/cdn/shop" },
    { host: "cdn.shopify.com", path: "s/files(?:/\\d+)+", clean: "/cdn/shop" },
    { host: "cdn.shopify.com", path: "videos", clean: "/cdn/shop/videos" }
  ];
}
function origins(cfg) {
  const st = cfg.storeDomain;
  if (!st) return { api: null, assets: [] };
  return {
    api: `https://${st}/api`,
    assets: [{ role: "store files", url: `https://${st}/cdn/shop` }]
  };
}
var shopify = {
  kind: "shopify",
  label: "Shopify",
  fields: {
    storeDomain: {
      rule: { re: HOSTNAME_RE, message: "must be a store domain such as shop.myshopify.com" },
      label: "Store domain",
      hint: "x.myshopify.com or the store's own domain",
      placeholder: "acme.myshopify.com"
    }
  },
  required: ["storeDomain"],
  sdkRequired: ["storeDomain"],
  origins,
  sources: (cfg) => cfg.storeDomain ? storeSources(cfg.storeDomain) : [],
  /** `/cdn/shop/...` on the store domain. */
  routes(cfg) {
    const st = cfg.storeDomain;
    if (!st) return NO_ROUTES;
    return {
      route(path) {
        if (!path.startsWith("/cdn/shop/") || path.length <= 10) return null;
        return { origin: `https://${st}`, path, query: "keep", role: "store files" };
      }
    };
  },
  samplePath: "/files/hero.jpg?v=1700000000&width=800",
  upstream: {
    assetHosts: [],
    defaultApiOrigin: null,
    // https://<store>/api, store-specific
    defaultAuthMode: "header",
    defaultAuthParam: "X-Shopify-Storefront-Access-Token"
  },
  demo: {
    provider: { cms: "shopify", storeDomain: "demo-store.myshopify.com" },
    apiOrigin: "https://demo-store.myshopify.com/api",
    path: "/2024-10/graphql.json?query=%7Bproducts(first%3A2)%7Bnodes%7Btitle%7D%7D%7D",
    body: {
      data: {
        products: {
          nodes: [
            {
              title: "Canvas tote",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000"
              },
              descriptionHtml: '<p><img src="//demo-store.myshopify.com/cdn/shop/files/tote-detail.png?width=600"></p>'
            },
            {
              title: "Enamel mug",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/mug.png?v=1700000001"
              }
            }
          ]
        }
      }
    },
    assetUrl: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000"
  },
  setup: {
    packages: ["@shopify/hydrogen", "@shopify/storefront-api-client", "shopify-buy"],
    envName: "SHOPIFY_STORE_DOMAIN",
    secrets: ["SHOPIFY_STOREFRONT_ACCESS_TOKEN"]
  },
  sdk: {
    // cdn.shopify.com serves every store: its forms whatever the store; else the store domain.
    hostSources: (host) => host === "cdn.shopify.com" ? storeSources("any.myshopify.com").filter((r) => r.host === "cdn.shopify.com") : storeSources(host),
    // The tenant's apiOrigin is `https://<store>/api`: the store's `/api/<version>/graphql.json`
    // is proxied as `/~api/<version>/graphql.json`, not `/~api/api/...`.
    apiOriginOfHost: (host) => isHostname(host) ? origins({ storeDomain: host }).api : null
  }
};

// sdk/providers/cloudinary.ts
var DEMO_CLOUD_NAME = "demo";
function privateDistributionHost(assetHost, cloudName) {
  if (!assetHost.startsWith("res.")) return null;
  return `${cloudName}-res.${assetHost.slice(4)}`;
}
var cloudinary = {
  kind: "cloudinary",
  label: "Cloudinary",
  fields: {
    cloudName: {
      rule: { re: /^[A-Za-z0-9_-]{1,64}$/, message: "must be 1-64 of letters, digits, _ and -" },
      label: "Cloud name",
      hint: "from the media library",
      placeholder: "demo"
    }
  },
  required: ["cloudName"],
  sdkRequired: ["cloudName"],
  origins(cfg, env) {
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
  },
  sources(cfg, env, keepCloudName) {
    const c = cfg.cloudName;
    if (!c) return [];
    const host = hostOf(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST);
    const seg = keepCloudName ? `/${c}` : "";
    const clean = (m) => `${seg}/${/\/video\/upload$/i.test(m) ? "video" : "image"}/upload`;
    const out = [
      { host, path: `${escapePathLiteral(c)}/(?:image|video)/upload`, clean }
    ];
    if (host.startsWith("res.")) {
      out.push({ host: `${c}-res.${host.slice(4)}`, path: "(?:image|video)/upload", clean });
    }
    return out;
  },
  /** `[/<cloud>]/image|video/upload/...` on the image host; the query is dropped. */
  routes(cfg, env) {
    const c = cfg.cloudName;
    if (!c) return NO_ROUTES;
    const origin2 = `${(env.imageHostOrigin ?? DEFAULT_IMAGE_HOST).replace(/\/+$/, "")}/${c}`;
    const cloudPrefix = `/${c}/`;
    return {
      route(path) {
        let rest = path;
        if (rest.startsWith(cloudPrefix)) rest = rest.slice(cloudPrefix.length - 1);
        const video = rest.startsWith("/video/upload/");
        if (!video && !rest.startsWith("/image/upload/")) return null;
        return { origin: origin2, path: rest, query: "drop", role: video ? "videos" : "images" };
      }
    };
  },
  samplePath: "/image/upload/w_800,c_fill/v1700000000/hero.jpg",
  // No legacy `/~assets/` hosts: the image host's URLs always had their own rules.
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "basic" },
  upstreamFor(env, cloudName) {
    const assetOrigin = env.imageHostOrigin ?? DEFAULT_IMAGE_HOST;
    const host = new URL(assetOrigin).host;
    return {
      assetHosts: [host],
      defaultApiOrigin: `${env.imageHostApiOrigin ?? DEFAULT_IMAGE_API}/v1_1/${cloudName}`,
      defaultAuthMode: "basic",
      privateHost: privateDistributionHost(host, cloudName)
    };
  },
  /** Basic credential for the image host API: base64 of `<api_key>:<api_secret>`. */
  tokenFromKeys(apiKey, apiSecret) {
    const bytes = new TextEncoder().encode(`${apiKey}:${apiSecret}`);
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  },
  demo: {
    provider: { cms: "cloudinary", cloudName: DEMO_CLOUD_NAME },
    apiOrigin: `https://api.cloudinary.com/v1_1/${DEMO_CLOUD_NAME}`,
    path: "/resources/image?max_results=2",
    body: {
      resources: [
        {
          public_id: "samples/landscapes/beach-boat",
          format: "jpg",
          width: 1920,
          height: 1280,
          secure_url: "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/landscapes/beach-boat.jpg"
        },
        {
          public_id: "samples/food/dessert",
          format: "jpg",
          width: 1280,
          height: 853,
          secure_url: "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/food/dessert.jpg"
        }
      ]
    },
    assetUrl: "https://res.cloudinary.com/demo/image/upload/w_400,c_scale/samples/food/dessert.jpg"
  },
  setup: {
    packages: ["cloudinary", "@cloudinary/url-gen", "next-cloudinary"],
    envName: "CLOUDINARY_CLOUD_NAME"
  }
};

// sdk/providers/imgix.ts
var imgix = {
  kind: "imgix",
  label: "imgix",
  fields: {
    imgixDomain: {
      rule: { re: HOSTNAME_RE, message: "must be an imgix source domain such as x.imgix.net" },
      label: "imgix source domain",
      hint: "x.imgix.net or a custom domain",
      placeholder: "acme.imgix.net"
    }
  },
  required: ["imgixDomain"],
  sdkRequired: ["imgixDomain"],
  origins: (cfg) => cfg.imgixDomain ? { api: null, assets: [{ role: "source", url: `https://${cfg.imgixDomain}` }] } : { api: null, assets: [] },
  sources: (cfg) => cfg.imgixDomain ? [{ host: cfg.imgixDomain, path: "", clean: "" }] : [],
  /** Any path on the source domain (strict: only recognisable files). */
  routes(cfg) {
    const d = cfg.imgixDomain;
    if (!d) return NO_ROUTES;
    return {
      route(path, strict) {
        if (path === "/" || strict && fileClassOf(path) === "other") return null;
        return { origin: `https://${d}`, path, query: "keep", role: "source" };
      }
    };
  },
  samplePath: "/photos/hero.jpg?w=800&auto=format",
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "none" },
  assetsOnly: true,
  demo: {
    provider: { cms: "imgix", imgixDomain: "demo-source.imgix.net" },
    apiOrigin: "https://api.example.com",
    path: "/gallery?limit=2",
    body: {
      photos: [
        { id: 1, src: "https://demo-source.imgix.net/photos/alps.jpg?w=1200&auto=format" },
        { id: 2, src: "https://demo-source.imgix.net/photos/coast.jpg?w=1200&fit=crop" }
      ]
    },
    assetUrl: "https://demo-source.imgix.net/photos/alps.jpg?w=1200&auto=format"
  },
  setup: {
    packages: ["@imgix/js-core", "react-imgix", "imgix-core-js"],
    envName: "IMGIX_DOMAIN"
  },
  sdk: { hostSources: (host) => [{ host, path: "", clean: "" }] }
};

// sdk/providers/types.ts
var STORYBLOK_REGIONS = ["eu", "us", "ap", "ca", "cn"];

// sdk/providers/storyblok.ts
var HOSTS2 = {
  eu: { assets: "a.storyblok.com", api: "https://api.storyblok.com/v2/cdn" },
  us: { assets: "a-us.storyblok.com", api: "https://api-us.storyblok.com/v2/cdn" },
  ap: { assets: "a-ap.storyblok.com", api: "https://api-ap.storyblok.com/v2/cdn" },
  ca: { assets: "a-ca.storyblok.com", api: "https://api-ca.storyblok.com/v2/cdn" },
  cn: { assets: "a.storyblokchina.cn", api: "https://app.storyblokchina.cn/v2/cdn" }
};
var hostsOf = (region) => HOSTS2[region ?? "eu"] ?? HOSTS2.eu;
var ACTIONS2 = {
  published: "publish",
  unpublished: "unpublish",
  deleted: "delete",
  moved: "change"
};
function draftCheck3(_path, pairs) {
  for (const pair of pairs) {
    if (pair.name === "version" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `version=${pair.value || "(empty)"} reads unpublished content: visitors get version=published only (a preview link allows drafts)`
      };
    }
    if (pair.name === "from_release") {
      return {
        param: shown(pair),
        message: "from_release reads an unpublished release: not served to visitors"
      };
    }
  }
  return null;
}
var storyblok = {
  kind: "storyblok",
  label: "Storyblok",
  fields: {
    region: {
      check: (v) => STORYBLOK_REGIONS.includes(v) ? null : `must be one of ${STORYBLOK_REGIONS.join(", ")}`,
      label: "Region",
      hint: "the space's region (default eu)",
      placeholder: "eu"
    }
  },
  required: [],
  sdkRequired: [],
  origins(cfg) {
    const h = hostsOf(cfg.region);
    return { api: h.api, assets: [{ role: "assets", url: `https://${h.assets}` }] };
  },
  sources: (cfg) => [{ host: hostsOf(cfg.region).assets, path: "", clean: "" }],
  /** Any path on the region's asset host (strict: only `/f/...`). */
  routes(cfg) {
    const h = hostsOf(cfg.region);
    return {
      route(path, strict) {
        if (path === "/" || strict && !path.startsWith("/f/")) return null;
        return { origin: `https://${h.assets}`, path, query: "keep", role: "assets" };
      }
    };
  },
  samplePath: "/f/123456/1200x800/a1b2c3d4e5/hero.jpg",
  upstream: {
    assetHosts: ["a.storyblok.com", "img2.storyblok.com"],
    defaultApiOrigin: "https://api.storyblok.com",
    defaultAuthMode: "query",
    defaultAuthParam: "token"
  },
  webhook: { eventType: (_headers, body) => bodyField(body, "action") ?? bodyField(body, "event") },
  entities: {
    answer(path, params, body) {
      const found = collectIds(
        body,
        (o) => typeof o.uuid === "string" && o.id !== void 0 ? [o.id, o.uuid] : null
      );
      const list = /\/stories\/?$/.test(path);
      const types = [];
      const ct = params.get("content_type");
      if (ct) types.push(ct);
      const folder = params.get("starts_with");
      if (folder) types.push(`slug:${folder.replace(/\/+$/, "")}`);
      return answerOf(found, types, list);
    },
    notice(_headers, body) {
      const b = record(body);
      if (!b) return { reason: "the payload is not a JSON object" };
      const action = typeof b.action === "string" ? b.action : "";
      if (b.story_id === void 0) {
        return { reason: `action "${action.slice(0, 40)}" names no story_id` };
      }
      return noticeOf(ACTIONS2[action] ?? "change", [b.story_id, b.uuid], null);
    }
  },
  drafts: {
    switches: [
      {
        name: "version",
        visitor: "400 unless `published` (the default when absent)",
        preview: "`draft` allowed"
      },
      { name: "from_release", visitor: "400", preview: "allowed" }
    ],
    apiHost: /^api(-[a-z]+)?\.storyblok\.com$|(^|\.)storyblokchina\.cn$/,
    previewHosts: [],
    check: draftCheck3,
    published: [],
    refParam: null
  },
  preview: { defaultSwitch: ["version", "draft"] },
  demo: {
    provider: { cms: "storyblok" },
    apiOrigin: "https://api.storyblok.com/v2/cdn",
    path: "/stories?starts_with=blog%2F&per_page=2",
    body: {
      stories: [
        {
          id: 101,
          name: "Launch week recap",
          full_slug: "blog/launch-week-recap",
          content: {
            component: "post",
            title: "Launch week recap",
            image: { filename: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg" }
          }
        },
        {
          id: 102,
          name: "Our roadmap",
          full_slug: "blog/our-roadmap",
          content: {
            component: "post",
            title: "Our roadmap",
            image: { filename: "https://a.storyblok.com/f/123456/1600x900/56gh78ij90/roadmap.png" }
          }
        }
      ],
      cv: 17e8
    },
    assetUrl: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg"
  },
  setup: {
    packages: [
      "@storyblok/js",
      "@storyblok/react",
      "@storyblok/vue",
      "@storyblok/nuxt",
      "storyblok-js-client"
    ],
    secrets: ["STORYBLOK_TOKEN", "STORYBLOK_ACCESS_TOKEN"],
    ask: false,
    keepAssetPath: true
  }
};

// sdk/providers/generic.ts
function checkOrigin(v, opts) {
  if (opts.allowHttp ? parseOrigin(v) : parseHttpsOrigin(v)) return null;
  return opts.allowHttp ? "must be an http:// or https:// origin without query or fragment" : "must be an https:// origin without query or fragment";
}
var origin = (text) => ({ ...text, check: checkOrigin });
var generic = {
  kind: "generic",
  label: "Generic HTTPS origin",
  fields: {
    originUrl: origin({
      label: "Origin URL",
      hint: "S3, R2, GCS or any HTTPS origin",
      placeholder: "https://bucket.s3.amazonaws.com"
    }),
    videoOrigin: origin({
      label: "Video origin (optional)",
      hint: "video files are fetched here instead",
      placeholder: "https://media.example.com"
    })
  },
  required: [],
  sdkRequired: [],
  origins(cfg) {
    const assets = [];
    const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
    if (o) assets.push({ role: "origin", url: originUrl(o) });
    const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
    if (v) assets.push({ role: "videos", url: originUrl(v) });
    return { api: null, assets };
  },
  sources(cfg) {
    const out = [];
    for (const raw of [cfg.videoOrigin, cfg.originUrl]) {
      const o = raw ? parseOrigin(raw) : null;
      if (o) {
        out.push({ host: o.host, path: o.base.split("/").slice(1).map(escapePathLiteral).join("/"), clean: "" });
      }
    }
    return out;
  },
  /** Any path on `originUrl`, videos on `videoOrigin` when set (strict: only files). */
  routes(cfg) {
    const o = cfg.originUrl ? parseOrigin(cfg.originUrl) : null;
    const v = cfg.videoOrigin ? parseOrigin(cfg.videoOrigin) : null;
    if (!o && !v) return NO_ROUTES;
    return {
      route(path, strict) {
        if (path === "/") return null;
        const cls = fileClassOf(path);
        if (strict && cls === "other") return null;
        const use = v && (cls === "video" || !o) ? v : o;
        return {
          origin: originUrl(use),
          path,
          query: "keep",
          role: use === v ? "videos" : "origin"
        };
      }
    };
  },
  samplePath: "/images/hero.jpg",
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "bearer" },
  assetsOnly: true,
  needsAnOrigin: true,
  webhook: { eventType: () => null },
  demo: {
    provider: { cms: "generic", originUrl: "https://static.example.com" },
    apiOrigin: "https://api.example.com",
    path: "/articles?limit=2",
    body: {
      data: [
        { id: 1, title: "Any HTTPS JSON API", image: "https://static.example.com/img/one.jpg" },
        { id: 2, title: "Cached at the edge", image: "https://static.example.com/img/two.jpg" }
      ]
    },
    assetUrl: "https://static.example.com/img/one.jpg"
  },
  setup: { packages: [], keepAssetPath: true },
  sdk: { label: "Generic origin (S3, R2, GCS, any HTTPS origin)", fromOrigins: true }
};

// sdk/providers/list.ts
var PROVIDER_LIST = [
  contentful,
  prismic,
  sanity,
  shopify,
  cloudinary,
  imgix,
  storyblok,
  generic
];

// sdk/providers.ts
var PROVIDER_KINDS = PROVIDER_LIST.map((d) => d.kind);
var PROVIDER_DEFINITIONS = Object.fromEntries(
  PROVIDER_LIST.map((d) => [d.kind, d])
);
var definitionOf = (kind) => PROVIDER_DEFINITIONS[kind];
function tableOf(pick) {
  return Object.fromEntries(PROVIDER_LIST.map((d) => [d.kind, pick(d)]));
}
var IDENTIFIER_RULES = Object.fromEntries(
  PROVIDER_LIST.flatMap(
    (d) => Object.entries(d.fields).flatMap(([f, spec]) => spec?.rule ? [[f, spec.rule]] : [])
  )
);
var PROVIDER_FIELDS = tableOf((d) => Object.keys(d.fields));
var fieldFlag = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
function validateProviderConfig(cfg, opts = {}) {
  const def = definitionOf(cfg.cms);
  for (const f of def.required) {
    if (!cfg[f]) return { field: f, message: `is required for ${cfg.cms}` };
  }
  for (const [f, spec] of Object.entries(def.fields)) {
    const v = cfg[f];
    if (v === void 0 || v === null || !spec) continue;
    if (typeof v !== "string") return { field: f, message: "must be a string" };
    const message = spec.check ? spec.check(v, opts) : spec.rule && !spec.rule.re.test(v) ? spec.rule.message : null;
    if (message) return { field: f, message };
  }
  return null;
}
function deriveOrigins(cfg, env = {}) {
  return definitionOf(cfg.cms).origins(cfg, env);
}
function providerSources(cfg, env = {}, keepCloudName = false) {
  return definitionOf(cfg.cms).sources(cfg, env, keepCloudName);
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
var providerRegistry = tableOf((d) => ({
  kind: d.kind,
  label: d.sdk?.label ?? d.label,
  fields: PROVIDER_FIELDS[d.kind],
  required: d.sdkRequired,
  packages: d.setup.packages
}));
var FN = "createGenericProvider";
var ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
function sourcesFor(id, o) {
  const kept = o.base.split("/").slice(1).map(escapePathLiteral).join("/");
  const generic2 = [{ host: o.host, path: kept, clean: "" }];
  if (o.base || !isKind(id)) return generic2;
  return definitionOf(id).sdk?.hostSources?.(o.host) ?? generic2;
}
function kindApiOrigin(id, o) {
  if (o.base || !isKind(id)) return o.origin;
  return definitionOf(id).sdk?.apiOriginOfHost?.(o.host) ?? o.origin;
}
var isKind = (id) => PROVIDER_KINDS.includes(id);
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
  const id = opts.id === void 0 ? generic.kind : String(opts.id);
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
  const origins2 = list("assetHosts", opts.assetHosts).map((raw, i) => {
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
    cms: generic.kind,
    originUrl: origins2[0] ? `https://${origins2[0].host}${origins2[0].base}` : null,
    videoOrigin: origins2[1] ? `https://${origins2[1].host}${origins2[1].base}` : null
  };
  const sources = origins2.flatMap((o) => sourcesFor(id, o));
  return {
    kind: generic.kind,
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
var BUILT_IN_IDS = PROVIDER_LIST.filter((d) => d.sdk?.builtIn).map((d) => d.kind);
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
  const def = definitionOf(cfg.cms);
  if (def.sdk?.fromOrigins) {
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
  const fromApiUrl = def.sdk?.identifierFromApiUrl;
  const field = PROVIDER_FIELDS[cfg.cms][0];
  if (fromApiUrl && !cfg[field] && apiOrigin === null) {
    return fromApiUrls(cfg, field, fromApiUrl, opts.env);
  }
  for (const f of def.sdkRequired) {
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
function fromApiUrls(cfg, field, identifierOf, env) {
  const known = /* @__PURE__ */ new Map();
  return {
    kind: cfg.cms,
    id: cfg.cms,
    config: { ...cfg },
    apiOrigin: null,
    apiOrigins: [],
    rewriter: (tenantOrigin, o = {}) => compileRewriter({ tenantOrigin, sources: providerSources(cfg, env, o.keepCloudName) }),
    fromApiUrl(url) {
      const id = identifierOf(url);
      if (id === null) return null;
      let p = known.get(id);
      if (!p) {
        p = resolveProvider({ ...cfg, [field]: id }, { env });
        if (known.size < 64) known.set(id, p);
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
function helperPath(framework, hasUtilsDir, cfg) {
  if (framework === "next") return "lib/cachely.ts";
  if (framework === "nuxt") {
    const own = definitionOf(cfg.cms).setup.nuxtComposable;
    if (own) return own;
    return hasUtilsDir ? "utils/cachely.ts" : "composables/useCachely.ts";
  }
  return "cachely.ts";
}
function genericHosts(cfg) {
  const d = deriveOrigins(cfg);
  const keepPath = definitionOf(cfg.cms).setup.keepAssetPath === true;
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
  const helper = definitionOf(cfg.cms).setup.helper;
  if (helper) {
    const body = helper({
      cfg,
      nuxt,
      hasUtilsDir,
      variable,
      envRead: (name) => envRead(framework, name)
    });
    return `${head}${direct}${body}`;
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
  const hints = definitionOf(cfg.provider.cms).setup;
  const id = hints.envName ? [PROVIDER_FIELDS[cfg.provider.cms][0], hints.envName] : null;
  let idExpr = "";
  if (id && cfg.provider[id[0]]) {
    env.push(`${v(id[1])}=${cfg.provider[id[0]]}`);
    idExpr = envRef(cfg.framework, v(id[1]));
  }
  const removeEnv = (hints.secrets ?? []).flatMap((s) => [s, `${prefix}${s}`]).filter((s, i, a) => a.indexOf(s) === i);
  const t = target.join(", ");
  const ext = cfg.framework === "node" || cfg.framework === "unknown" ? "js" : "ts";
  let code2;
  if (hints.snippet) {
    code2 = hints.snippet(idExpr, t);
  } else {
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
var ID_FLAGS = Object.fromEntries(
  Object.values(PROVIDER_FIELDS).flat().map((f) => [fieldFlag(f), f])
);
var DEFAULT_KIND = generic.kind;
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
    kind = (await io.ask(`CMS (${PROVIDER_KINDS.join(", ")}) [${DEFAULT_KIND}]: `)).trim() || DEFAULT_KIND;
  }
  kind ??= DEFAULT_KIND;
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
  if (first && !provider[first] && interactive && definitionOf(provider.cms).setup.ask !== false) {
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
  let origin2;
  let hosts = genericHosts(provider);
  try {
    origin2 = resolveTenantOrigin(`cachely ${command}`, target);
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
    ...customDomain ? { customDomain } : tenant ? { tenant } : { proxyUrl: origin2 },
    ...target.proxyDomain && !customDomain ? { proxyDomain: target.proxyDomain } : {},
    provider,
    ...str("api-origin") ? { apiOrigin: str("api-origin") } : {},
    framework,
    sdkVersion: run.sdkVersion
  };
  return { config, origin: origin2, hosts };
}
async function codeActions(run, config, origin2, hosts, dryRun) {
  const { io, flags } = run;
  const { provider, framework } = config;
  const actions = [];
  const skipped = [];
  let prismicClient = null;
  const hasUtils = await io.isDir?.("utils") ?? false;
  const file = helperPath(framework, hasUtils, provider);
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
  if (definitionOf(provider.cms).setup.nuxtComposable && framework === "nuxt") {
    prismicClient = await nuxtPrismicClient(io, {
      yes: flags.yes === true,
      ask: run.interactive && !dryRun
    });
    if (prismicClient?.text) {
      actions.push({ file: prismicClient.file, text: prismicClient.text, what: "patch" });
    }
  }
  const variable = proxyUrlVariable(framework);
  const env = envExampleWith(await io.readFile(".env.example"), origin2, variable);
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
   (store the token on the tenant instead: Cachely dashboard {"\u2192"} API proxy)` : ""}

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
    const { config, origin: origin2, hosts } = await resolveConfig(run, provider, framework);
    const code2 = writesCode ? await codeActions(run, config, origin2, hosts, dryRun) : { actions: [], skipped: [], prismicClient: null };
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
        tenantOrigin: origin2,
        detected,
        changes
      };
      io.out(JSON.stringify({ ...report, ...client ? { prismicClient: client } : {} }, null, 2));
      return 0;
    }
    io.out(`Wrote ${CONFIG_FILE} (tenant host ${origin2}, ${provider.cms}, ${framework})`);
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
      const shown2 = parts.slice(0, i).join("/");
      const info = await lstat(join(root, ...parts.slice(0, i))).catch((e) => {
        if (e.code === "ENOENT") return null;
        throw e;
      });
      if (info === null) return;
      if (info.isSymbolicLink()) throw refuse(name, `${shown2} is a symbolic link`);
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
