/**
 * Storyblok's entities: stories by `id` and `uuid` (resolved relations and links too), lists
 * typed by `content_type` and by `starts_with` (as `slug:<folder>`). Webhooks name the story
 * (`story_id`) and the `action` but not its content type, so a story's webhook purges every
 * list.
 */
import {
  answerOf,
  collectIds,
  type EntityKnowledge,
  type EntityNotice,
  noticeOf,
  record,
} from "./types.ts";

const ACTIONS: Record<string, EntityNotice["action"]> = {
  published: "publish",
  unpublished: "unpublish",
  deleted: "delete",
  moved: "change",
};

export const storyblokEntities: EntityKnowledge = {
  answer(path, params, body) {
    const found = collectIds(
      body,
      (o) => typeof o.uuid === "string" && o.id !== undefined ? [o.id, o.uuid] : null,
    );
    const list = /\/stories\/?$/.test(path);
    const types: string[] = [];
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
    if (b.story_id === undefined) {
      return { reason: `action "${action.slice(0, 40)}" names no story_id` };
    }
    return noticeOf(ACTIONS[action] ?? "change", [b.story_id, b.uuid], null);
  },
};
