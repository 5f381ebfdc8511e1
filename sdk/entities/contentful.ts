/**
 * Contentful's entities: entries and assets by `sys.id` (included ones too), entry lists
 * typed by `content_type`, asset lists by the `~asset` pseudo type. Webhooks: the topic in
 * X-Contentful-Topic (`ContentManagement.Entry.publish`) and the entity in the body's `sys`
 * (`id`, `revision`, `contentType.sys.id`).
 */
import {
  answerOf,
  collectIds,
  type EntityKnowledge,
  type EntityNotice,
  noticeOf,
  record,
} from "./types.ts";

/** The type asset lists are tagged with, and asset webhooks purge. */
export const CONTENTFUL_ASSET_TYPE = "~asset";

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

export const contentfulEntities: EntityKnowledge = {
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
};
