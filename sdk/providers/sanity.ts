/**
 * Sanity: a project ID and dataset; images and files on cdn.sanity.io; every document by
 * `_id` (drafts never reach visitors), query answers typed by the GROQ filters
 * `_type == "..."` and `_type in [...]` where they parse. Webhooks: GROQ-powered ones whose
 * projection carries `_id`, `_type` and `_updatedAt` (the default projection, the whole
 * document, does; `{_id, _type, _updatedAt}` is the least to project), with the operation in
 * the sanity-operation header; or the legacy shape `{ ids: { created, updated, deleted, all } }`.
 *
 * @module
 */
import { escapePathLiteral as lit } from "../rewrite.ts";
import { answerOf, collectIds, noticeOf, record } from "../entities/types.ts";
import { type CanonicalPair, decodeFully, type DraftRefusal, shown } from "./draft_query.ts";
import { bodyField, fileClassOf, NO_ROUTES } from "./shared.ts";
import type { ProviderKindDefinition } from "./types.ts";

const TYPE_EQ = /_type\s*==\s*(["'])([^"']{1,200})\1/g;
const TYPE_IN = /_type\s+in\s*\[([^\]]{1,2000})\]/g;
const QUOTED = /(["'])([^"']{1,200})\1/g;

/** The content types a GROQ query filters on (none when it names none it can parse). */
export function groqTypes(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.matchAll(TYPE_EQ)) out.add(m[2]);
  for (const m of query.matchAll(TYPE_IN)) for (const q of m[1].matchAll(QUOTED)) out.add(q[2]);
  return [...out];
}

const published = (id: unknown) =>
  typeof id === "string" && !id.startsWith("drafts.") && !id.startsWith("versions.");

/**
 * GROQ that names draft or release-version ids. The one idiom that excludes drafts,
 * `!(_id in path("drafts.**"))`, is common in queries written before perspectives and
 * is allowed; every other mention is refused.
 */
const DRAFT_ID = /drafts\.|versions\./i;
const EXCLUDE_DRAFTS = /!\s*\(\s*_id\s+in\s+path\s*\(\s*(["'])drafts\.\*\*\1\s*\)\s*\)/gi;
/** Release and version functions of GROQ (sanity::versionOf, sanity::partOfRelease). */
const VERSION_FUNCTIONS = /sanity::(versionof|partofrelease)/i;
/** The first dated API version that knows `perspective` (older ones answer raw). */
const FIRST_PERSPECTIVE_VERSION = "2021-03-25";
/** Endpoints that read every document state whatever the perspective. */
const SANITY_ALL_STATES = /\/data\/(export|history|listen)(\/|$)/i;

function draftCheck(path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  const p = decodeFully(path);
  if (DRAFT_ID.test(p)) {
    return {
      param: "path",
      message:
        "Draft and version document ids (drafts.\u2026, versions.\u2026) are not served to visitors",
    };
  }
  const version = /^\/v(\d{4}-\d{2}-\d{2}|\d+)(?:\/|$)/i.exec(p)?.[1];
  if (version !== undefined && (!version.includes("-") || version < FIRST_PERSPECTIVE_VERSION)) {
    return {
      param: "path",
      message: `Sanity API v${version} cannot be limited to published documents: ` +
        `use API version v${FIRST_PERSPECTIVE_VERSION} or later`,
    };
  }
  if (SANITY_ALL_STATES.test(p)) {
    return { param: "path", message: "Export, history and listen read drafts: not for visitors" };
  }
  for (const pair of pairs) {
    if (pair.name === "perspective" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `perspective=${pair.value || "(empty)"} reads unpublished content: ` +
          "visitors get perspective=published only (a preview link allows drafts)",
      };
    }
    const text = `${pair.name}=${pair.value}`.replace(EXCLUDE_DRAFTS, "");
    if (DRAFT_ID.test(text) || VERSION_FUNCTIONS.test(text)) {
      return {
        param: shown(pair),
        message:
          `${shown(pair)} reads draft or version documents (drafts.\u2026, versions.\u2026): ` +
          "not served to visitors (a preview link allows it)",
      };
    }
  }
  return null;
}

export const sanity: ProviderKindDefinition<"sanity"> = {
  kind: "sanity",
  label: "Sanity",
  fields: {
    projectId: {
      rule: { re: /^[a-z0-9]{1,64}$/, message: "must be a Sanity project ID (a-z, 0-9)" },
      label: "Project ID",
      hint: "sanity.io/manage",
      placeholder: "p1x2y3z4",
    },
    dataset: {
      rule: {
        re: /^[a-z0-9][a-z0-9_-]{0,63}$/,
        message: "must be a Sanity dataset name (a-z, 0-9, _ and -)",
      },
      label: "Dataset",
      hint: "default production",
      placeholder: "production",
    },
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
        { role: "files", url: `https://cdn.sanity.io/files/${p}/${d}` },
      ],
    };
  },
  sources(cfg) {
    const p = cfg.projectId;
    if (!p) return [];
    const d = cfg.dataset || "production";
    return [
      { host: "cdn.sanity.io", path: `images/${lit(p)}/${lit(d)}`, clean: "" },
      { host: "cdn.sanity.io", path: `files/${lit(p)}/${lit(d)}`, clean: "" },
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
  },
  samplePath: "/a3f5e6bb0c0b1b0c9f6d2b8e5c7f1a2d3e4f5a6b-1200x800.jpg?w=800",
  upstream: {
    assetHosts: ["cdn.sanity.io"],
    defaultApiOrigin: null, // https://<projectId>.apicdn.sanity.io, project-specific
    defaultAuthMode: "bearer",
  },
  viewDefaults: (cfg) => cfg.projectId ? { dataset: cfg.dataset ?? "production" } : {},
  webhook: {
    eventType: (headers, body) =>
      bodyField(body, "type") ?? headers.get("sanity-operation")?.slice(0, 200) ??
        bodyField(body, "event"),
  },
  entities: {
    answer(path, params, body) {
      const found = collectIds(body, (o) => (typeof o._id === "string" ? [o._id] : null));
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
      const id = b._id as string;
      // _updatedAt, not _rev: a _rev is a transaction id, which has no order to compare by.
      const revisions: Record<string, string> = {};
      if (typeof b._updatedAt === "string") revisions[id] = b._updatedAt;
      const action = op === "delete"
        ? "delete"
        : op === "create" || op === "update"
        ? "publish"
        : "change";
      return noticeOf(action, [id], typeof b._type === "string" ? [b._type] : null, revisions);
    },
    revisionOf(o) {
      return typeof o._id === "string" && typeof o._updatedAt === "string"
        ? [o._id, o._updatedAt]
        : null;
    },
  },
  drafts: {
    switches: [
      {
        name: "perspective",
        visitor: "400 unless `published`; added as `perspective=published` when absent " +
          "(API versions before 2025-02-19 default to `raw`, which includes drafts)",
        preview: "any (`drafts`, `raw`, `previewDrafts`, release ids)",
      },
      {
        name:
          "GROQ and $params naming `drafts.` / `versions.` ids, sanity::versionOf / partOfRelease",
        visitor: '400 naming the parameter (`!(_id in path("drafts.**"))` is allowed)',
        preview: "allowed",
      },
      {
        name:
          "path: draft ids, API v1 or before v2021-03-25, /data/export, /data/history, /data/listen",
        visitor: "400 (`path`)",
        preview: "allowed",
      },
    ],
    apiHost: /(^|\.)(api|apicdn)\.sanity\.io$/,
    previewHosts: [],
    check: draftCheck,
    published: [["perspective", "published"]],
    refParam: null,
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
            url: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg",
          },
        },
        {
          _id: "e5f6a7b8-post-2",
          _type: "post",
          title: "Structured content 101",
          mainImage: {
            url: "https://cdn.sanity.io/images/demo0proj/production/9f8e7d6c5b4a-1600x900.png",
          },
        },
      ],
    },
    assetUrl: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg",
  },
  setup: {
    packages: ["@sanity/client", "next-sanity", "@sanity/image-url"],
    envName: "SANITY_PROJECT_ID",
    secrets: ["SANITY_API_TOKEN", "SANITY_TOKEN"],
  },
  sdk: {
    hostSources: (host) =>
      host === "cdn.sanity.io"
        ? [{ host, path: "(?:images|files)/[a-z0-9]+/[a-z0-9_-]+", clean: "" }]
        : null,
  },
};
