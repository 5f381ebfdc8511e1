/**
 * What a CMS answer or a CMS webhook says about entities (entries, documents, stories,
 * assets): the shapes each provider's knowledge fills in (sdk/entities/mod.ts). Ids and
 * content types become cache tags at the edge (edge/entity_tags.ts); a webhook's notice
 * names the tags a publish purges (lib/webhooks/entity_purge.ts).
 *
 * Dependency-free, like sdk/providers.ts.
 *
 * @module
 */
/** Tags one cached answer may carry; past it the answer is tagged tenant-wide. */
export declare const MAX_ANSWER_TAGS = 256;
/** Ids one webhook may name; past it the webhook purges like a version bump. */
export declare const MAX_NOTICE_IDS = 100;
/** Longest id or content type kept as a tag (longer ones make the answer tenant-wide). */
export declare const MAX_ENTITY_NAME = 200;
/** The entities of one API answer. */
export type AnswerEntities = {
    /** Ids of every entity the body holds (entries, assets, documents, stories, included ones). */
    ids: string[];
    /** Content types the request names (a list query's filter). */
    types: string[];
    /** The request is a list query: a newly published entity may belong in it. */
    list: boolean;
    /** Too many ids, or one that cannot be a tag: tag the answer tenant-wide. */
    wide: boolean;
    /**
     * A list of its types filtered by nothing else and holding every match (no further page):
     * a published entity of those types must be in it.
     */
    complete: boolean;
};
/** What a publish, unpublish or delete webhook announces. */
export type EntityNotice = {
    action: "publish" | "unpublish" | "delete" | "change";
    ids: string[];
    /** Content types of the entities; null when the payload names none (every list is purged). */
    types: string[] | null;
    /** The announced revision per id (Contentful sys.revision, Sanity _rev, ...), where given. */
    revisions: Record<string, string | number>;
};
/** A webhook whose payload names no entity it can purge by: why. */
export type NoNotice = {
    reason: string;
};
/** One provider's entity knowledge. */
export type EntityKnowledge = {
    /** Entities of an answer to `path?params` whose JSON body is `body`. */
    answer(path: string, params: URLSearchParams, body: unknown): AnswerEntities;
    /** The entities a webhook delivery announces, or why it names none usable. */
    notice(headers: Headers, body: unknown): EntityNotice | NoNotice;
    /**
     * An entity object's id and its ordered revision, where the provider's webhook announces
     * one to compare with (Contentful sys.revision, Sanity _updatedAt); absent otherwise.
     */
    revisionOf?(o: Record<string, unknown>): [string, string | number] | null;
};
/**
 * The lowest revision the body holds of each of `wanted` (an entity may appear more than
 * once: included, linked, per locale). Bounded like collectIds.
 */
export declare function bodyRevisions(body: unknown, k: EntityKnowledge, wanted: ReadonlySet<string>): Map<string, string | number>;
/** `a` is older than `b`: numbers by value, strings (ISO times) in order; mixed never. */
export declare function olderRevision(a: string | number, b: string | number): boolean;
/** A usable id or type: printable ASCII without spaces or commas, bounded. */
export declare function usableName(v: unknown): v is string;
/** A plain JSON object, or null. */
export declare function record(v: unknown): Record<string, unknown> | null;
/**
 * Collects ids from a JSON body: `pick` names the id(s) of one object, or none. The walk is
 * bounded in nodes visited, so a huge body costs a bounded time; past either bound the
 * answer is wide.
 */
export declare function collectIds(body: unknown, pick: (o: Record<string, unknown>) => readonly unknown[] | null): {
    ids: string[];
    wide: boolean;
};
/** The answer's entities with its types, bounded. */
export declare function answerOf(found: {
    ids: string[];
    wide: boolean;
}, types: string[], list: boolean, complete?: boolean): AnswerEntities;
/** Bounds a notice's ids; too many or none is no notice. */
export declare function noticeOf(action: EntityNotice["action"], rawIds: readonly unknown[], types: string[] | null, revisions?: Record<string, string | number>): EntityNotice | NoNotice;
