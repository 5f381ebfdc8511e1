/* @cachely/sdk 0.14.0 (sdk/prismic.ts) */

// sdk/prismic.ts
import * as prismic2 from "@prismicio/client";

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
    helper: ({ cfg, nuxt, hasUtilsDir, variable, envRead }) => `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

export const contentful = createClient(
  createContentfulCachelyAdapter({
    space: ${JSON.stringify(cfg.spaceId ?? "")},
    accessToken: ${envRead("CONTENTFUL_ACCESS_TOKEN")}, // used only without ${variable}
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
    helper({ cfg, nuxt, variable, envRead }) {
      const name = nuxt ? "useCachelyPrismicClient" : "prismic";
      const client = `createCachelyPrismicClient({
    repositoryName: ${JSON.stringify(cfg.repository ?? "")},
    accessToken: ${envRead("PRISMIC_ACCESS_TOKEN")}, // used only without ${variable}
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
    return this.pending ??= verifiedDomainOrigin(this.host, this.f).then((origin2) => {
      this.learn = false;
      if (!origin2) return;
      this.current = origin2;
      this.rewriters.clear();
    });
  }
  /** True for the tenant host and the learnt origin (URLs already on the proxy). */
  owns(origin2) {
    return origin2 === this.current || origin2 === this.host;
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
  const origin2 = new LearntOrigin(tenantHost, asksVerifiedDomain(options), inner, rewriters);
  const rewriterOf = (p) => {
    if (rewriteOff) return null;
    let r = rewriters.get(p);
    if (!r) rewriters.set(p, r = p.rewriter(origin2.current));
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
      u = new URL(`${origin2.current}/~api/${raw.replace(/^\/+/, "")}`);
    } else {
      u = new URL(raw);
      if (origin2.owns(u.origin) && (u.pathname === "/~api" || u.pathname.startsWith("/~api/"))) {
      } else {
        const derived = provider.fromApiUrl?.(u) ?? null;
        via = derived ?? provider;
        const api = (derived ? apisOf(derived) : apis).find(
          (a) => u.origin === a.origin && (a.path === "" || u.pathname === a.path || u.pathname.startsWith(a.path + "/"))
        );
        if (!api) return null;
        const rest = u.pathname.slice(api.path.length);
        u = new URL(`${origin2.current}/~api${rest.startsWith("/") ? "" : "/"}${rest}${u.search}`);
      }
    }
    for (const p of CREDENTIAL_PARAMS) u.searchParams.delete(p);
    if (options.preview) u.searchParams.set(previewParam, "1");
    if (options.previewToken) u.searchParams.set(PREVIEW_TOKEN_PARAM, options.previewToken);
    if (options.transform) u.searchParams.set("transform", String(options.transform));
    return { url: u, via };
  }
  const cachelyFetch = async function(input, init) {
    await origin2.ready();
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
  return Object.assign(origin2.exposedOn(cachelyFetch), {
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
function hostOf2(origin2) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(origin2);
  if (!m) throw new TypeError(`Invalid origin: ${origin2}`);
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
      // The image host's own rules, unless the provider is the image host (its config has them).
      imageHost: options.cloudName && !(options.provider && PROVIDER_FIELDS[options.provider.cms]?.includes("cloudName")) ? {
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
    repository ? { ...rest, provider: { cms: prismic.kind, repository } } : { ...rest, sources: PRISMIC_ANY }
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
    const client2 = prismic2.createClient(repositoryName, {
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
      provider: { cms: prismic.kind, repository: repositoryName }
    });
  } catch (e) {
    throw new Error(
      e.message.replace("createCachelyFetch", FN3).replace(
        "provider.repository",
        "repositoryName"
      )
    );
  }
  const client = prismic2.createClient(repositoryName, {
    ...clientConfig,
    fetch: cachelyFetch
  });
  return Object.assign(client, { cachelyFetch });
}
export {
  createCachelyPrismicClient,
  transformPrismicAssetUrls
};
