/**
 * Contentful: a space ID; images, videos, assets and downloads on `*.ctfassets.net/<space>`;
 * entries and assets by `sys.id` (included ones too), entry lists typed by `content_type`,
 * asset lists by the `~asset` pseudo type. Webhooks: the topic in X-Contentful-Topic
 * (`ContentManagement.Entry.publish`) and the entity in the body's `sys` (`id`, `revision`,
 * `contentType.sys.id`).
 *
 * @module
 */
import { escapePathLiteral as lit } from "../rewrite.ts";
import { answerOf, collectIds, type EntityNotice, noticeOf, record } from "../entities/types.ts";
import { type CanonicalPair, type DraftRefusal, shown } from "./draft_query.ts";
import { bodyField, fileClassOf, NO_ROUTES, segments } from "./shared.ts";
import type { ProviderKindDefinition } from "./types.ts";

/** The type asset lists are tagged with, and asset webhooks purge. */
const CONTENTFUL_ASSET_TYPE = "~asset";

const ACTIONS: Record<string, EntityNotice["action"]> = {
  publish: "publish",
  unpublish: "unpublish",
  archive: "unpublish",
  delete: "delete",
};

/** Query parameters that order, shape or page a list without filtering what it matches. */
const UNFILTERED = new Set(["content_type", "order", "limit", "include", "locale", "select"]);

/** Every entry of the list's type is in this answer: no filter, the first page, and the last. */
function wholeList(params: URLSearchParams, body: unknown): boolean {
  for (const [k, v] of params) if (!UNFILTERED.has(k) && !(k === "skip" && v === "0")) return false;
  const b = record(body);
  return typeof b?.total === "number" && typeof b.limit === "number" && b.total <= b.limit;
}

/** GraphQL's `preview: true` argument (answered only with a Preview API token). */
const GRAPHQL_PREVIEW = /\bpreview\s*:\s*true\b/i;

function draftCheck(_path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  for (const pair of pairs) {
    if (GRAPHQL_PREVIEW.test(pair.value)) {
      return {
        param: shown(pair),
        message: `${shown(pair)} asks for preview content: not served to visitors`,
      };
    }
  }
  return null;
}

const HOSTS = ["images", "videos", "assets", "downloads"];

export const contentful: ProviderKindDefinition<"contentful"> = {
  kind: "contentful",
  label: "Contentful",
  fields: {
    spaceId: {
      rule: { re: /^[a-z0-9]{4,64}$/, message: "must be a Contentful space ID (4-64 of a-z, 0-9)" },
      label: "Space ID",
      hint: "Settings \u2192 General settings",
      placeholder: "abc123xyz",
    },
  },
  required: [],
  sdkRequired: ["spaceId"],
  origins(cfg) {
    const s = cfg.spaceId;
    if (!s) return { api: null, assets: [] };
    return {
      api: `https://cdn.contentful.com/spaces/${s}`,
      assets: HOSTS.map((sub) => ({ role: sub, url: `https://${sub}.ctfassets.net/${s}` })),
    };
  },
  sources(cfg) {
    const s = cfg.spaceId;
    if (!s) return [];
    return HOSTS.map((sub) => ({ host: `${sub}.ctfassets.net`, path: lit(s), clean: "" }));
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
            role: "images",
          };
        }
        if (cls === "video") {
          return {
            origin: `https://videos.ctfassets.net/${s}`,
            path,
            query: "drop",
            role: "videos",
          };
        }
        return { origin: `https://assets.ctfassets.net/${s}`, path, query: "drop", role: "assets" };
      },
    };
  },
  samplePath: "/5mPbW2dyZ1OLjbMOKSqwmk/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d/hero.jpg?w=800&fm=webp",
  upstream: {
    assetHosts: [
      "images.ctfassets.net",
      "assets.ctfassets.net",
      "videos.ctfassets.net",
      "downloads.ctfassets.net",
    ],
    defaultApiOrigin: "https://cdn.contentful.com",
    defaultAuthMode: "bearer",
  },
  webhook: {
    eventType: (headers, body) =>
      headers.get("x-contentful-topic")?.slice(0, 200) ?? bodyField(body, "type") ?? null,
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
      const revisions: Record<string, number> = {};
      if (typeof id === "string" && typeof revision === "number") revisions[id] = revision;
      // Contentful ids are strings; anything else is no id.
      return noticeOf(
        ACTIONS[verb] ?? "change",
        typeof id === "string" ? [id] : [],
        types,
        revisions,
      );
    },
    revisionOf(o) {
      const sys = record(o.sys);
      if (!sys || (sys.type !== "Entry" && sys.type !== "Asset")) return null;
      return typeof sys.id === "string" && typeof sys.revision === "number"
        ? [sys.id, sys.revision]
        : null;
    },
  },
  drafts: {
    switches: [
      {
        name: "API host preview.contentful.com (the Preview API)",
        visitor: "403: a tenant whose API origin is the Preview API answers visitors nothing",
        preview: "the tenant's preview token on preview.contentful.com",
      },
      { name: "GraphQL `preview: true`", visitor: "400", preview: "allowed" },
    ],
    apiHost: /(^|\.)contentful\.com$/,
    previewHosts: ["preview.contentful.com"],
    check: draftCheck,
    published: [],
    refParam: null,
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
              url:
                "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg",
            },
          },
        },
        {
          sys: { id: "31TNnjHlfaGUoMOwGGQMmW", type: "Entry" },
          fields: {
            title: "Hello world",
            heroImage: {
              url:
                "https://images.ctfassets.net/demo0space/4NzwDSDlGECGIiokKomsyI/5d2a6b3e0a/hello.png",
            },
          },
        },
      ],
    },
    assetUrl: "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg",
  },
  setup: {
    packages: ["contentful", "@contentful/rich-text-react-renderer"],
    envName: "CONTENTFUL_SPACE_ID",
    secrets: ["CONTENTFUL_ACCESS_TOKEN", "CONTENTFUL_DELIVERY_TOKEN"],
    snippet: (idExpr, t) =>
      `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

// Replaces createClient({ space, accessToken }): no token in the browser any more.
export const contentful = createClient(
  createContentfulCachelyAdapter({ space: ${idExpr}, ${t} }),
);`,
    helper: ({ cfg, nuxt, hasUtilsDir, variable, envRead }) =>
      `import { createClient } from "contentful";
import { createContentfulCachelyAdapter } from "@cachely/sdk/contentful";

export const contentful = createClient(
  createContentfulCachelyAdapter({
    space: ${JSON.stringify(cfg.spaceId ?? "")},
    accessToken: ${envRead("CONTENTFUL_ACCESS_TOKEN")}, // used only without ${variable}
  }),
);
${
        nuxt
          ? `\nexport const ${
            hasUtilsDir ? "cachelyContentful" : "useCachely"
          } = () => contentful;\n`
          : ""
      }`,
  },
  sdk: {
    builtIn: true,
    hostSources: (host) =>
      host.endsWith(".ctfassets.net") ? [{ host, path: "[A-Za-z0-9]+", clean: "" }] : null,
  },
};
