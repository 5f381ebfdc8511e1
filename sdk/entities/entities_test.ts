/**
 * Entity knowledge per provider against the providers' real shapes: delivery answers (ids of
 * the entities held, content types of list queries, bounds) and webhook payloads.
 */
import { assertEquals } from "../../tests/assert.ts";
import { ENTITIES, type EntityKnowledge, MAX_ANSWER_TAGS, MAX_NOTICE_IDS } from "./mod.ts";
import { groqTypes } from "../providers/sanity.ts";
import { prismicTypes } from "../providers/prismic.ts";

const k = (kind: keyof typeof ENTITIES) => ENTITIES[kind] as EntityKnowledge;
const q = (s: string) => new URLSearchParams(s);
const noHeaders = new Headers();

Deno.test("Contentful: entries, included entries and assets by sys.id; links are not held", () => {
  const body = {
    sys: { type: "Array" },
    items: [{
      sys: { id: "e1", type: "Entry", contentType: { sys: { id: "post", type: "Link" } } },
      fields: { hero: { sys: { type: "Link", linkType: "Asset", id: "a9" } } },
    }],
    includes: {
      Entry: [{ sys: { id: "author1", type: "Entry" } }],
      Asset: [{ sys: { id: "a1", type: "Asset" } }],
    },
  };
  const a = k("contentful").answer("/environments/master/entries", q("content_type=post"), body);
  assertEquals(a.ids.sort(), ["a1", "author1", "e1"]);
  assertEquals([a.types, a.list, a.wide], [["post"], true, false]);
  const one = k("contentful").answer("/entries/e1", q(""), body.items[0]);
  assertEquals([one.ids, one.list], [["e1"], false]);
  assertEquals(k("contentful").answer("/assets", q(""), { items: [] }).types, ["~asset"]);
});

Deno.test("Contentful webhooks: topic header and sys", () => {
  const h = (topic: string) => new Headers({ "x-contentful-topic": topic });
  const sys = {
    id: "5KsDBWseXY6QegucYAoacS",
    type: "Entry",
    revision: 4,
    contentType: { sys: { type: "Link", linkType: "ContentType", id: "blogPost" } },
  };
  assertEquals(k("contentful").notice(h("ContentManagement.Entry.publish"), { sys }), {
    action: "publish",
    ids: ["5KsDBWseXY6QegucYAoacS"],
    types: ["blogPost"],
    revisions: { "5KsDBWseXY6QegucYAoacS": 4 },
  });
  const deleted = { sys: { ...sys, type: "DeletedEntry" } };
  assertEquals(
    (k("contentful").notice(h("ContentManagement.Entry.delete"), deleted) as { action: string })
      .action,
    "delete",
  );
  const asset = k("contentful").notice(h("ContentManagement.Asset.unpublish"), {
    sys: { id: "a1", type: "DeletedAsset", revision: 2 },
  });
  assertEquals((asset as { types: string[] }).types, ["~asset"]);
  assertEquals(
    "reason" in k("contentful").notice(h("ContentManagement.ContentType.publish"), { sys }),
    true,
  );
});

Deno.test("Sanity: _id of every document, GROQ _type filters, drafts never purged", () => {
  assertEquals(groqTypes(`*[_type == "post" && slug.current == $slug][0]`), ["post"]);
  assertEquals(groqTypes(`*[_type in ['post', "page"]]{..., author->}`), ["post", "page"]);
  assertEquals(groqTypes(`*[defined(slug)]`), []);
  const a = k("sanity").answer(
    "/v2025-02-19/data/query/production",
    q(`query=*[_type == "post"]{title, author->}`),
    { result: [{ _id: "p1", _type: "post", author: { _id: "au1", _type: "author" } }], ms: 3 },
  );
  assertEquals([a.ids.sort(), a.types, a.list], [["au1", "p1"], ["post"], true]);
  const headers = new Headers({ "sanity-operation": "update", "sanity-document-id": "p1" });
  const doc = { _id: "p1", _type: "post", _rev: "Yx9q2", _updatedAt: "2026-01-01T00:00:00Z" };
  assertEquals(k("sanity").notice(headers, doc), {
    action: "publish",
    ids: ["p1"],
    types: ["post"],
    revisions: { p1: "2026-01-01T00:00:00Z" },
  });
  assertEquals(
    (k("sanity").notice(new Headers({ "sanity-operation": "delete" }), doc) as { action: string })
      .action,
    "delete",
  );
  assertEquals(k("sanity").notice(headers, { ...doc, _id: "drafts.p1" }), {
    reason: "a draft changed",
  });
  // The legacy (transaction) shape Sanity documents for migrating old webhooks.
  const legacy = {
    transactionId: "Not supported",
    projectId: "abc",
    dataset: "production",
    ids: { created: [], deleted: [], updated: ["p1", "drafts.p2"], all: ["p1", "drafts.p2"] },
  };
  assertEquals(k("sanity").notice(noHeaders, legacy), {
    action: "change",
    ids: ["p1"],
    types: null,
    revisions: {},
  });
});

Deno.test("Storyblok: stories by id and uuid, content_type and starts_with lists; webhook story_id", () => {
  const body = {
    stories: [{
      id: 101,
      uuid: "u-101",
      full_slug: "blog/a",
      content: { _uid: "x", component: "post" },
    }],
    rels: [{ id: 7, uuid: "u-7", full_slug: "authors/x" }],
  };
  const a = k("storyblok").answer(
    "/v2/cdn/stories",
    q("content_type=post&starts_with=blog/"),
    body,
  );
  assertEquals(a.ids.sort(), ["101", "7", "u-101", "u-7"]);
  assertEquals([a.types, a.list], [["post", "slug:blog"], true]);
  const payload = {
    text: "The user test@example.com published the Story Home (home)",
    action: "published",
    space_id: 123,
    story_id: 101,
    full_slug: "home",
  };
  assertEquals(k("storyblok").notice(noHeaders, payload), {
    action: "publish",
    ids: ["101"],
    types: null,
    revisions: {},
  });
  assertEquals(
    "reason" in k("storyblok").notice(noHeaders, { action: "entries_updated", space_id: 1 }),
    true,
  );
});

Deno.test("Prismic: documents by id, document.type predicates; api-update webhook documents", () => {
  assertEquals(prismicTypes(['[[at(document.type, "blog_post")]]']), ["blog_post"]);
  assertEquals(prismicTypes(['[[any(document.type, ["a", "b"])]]']), ["a", "b"]);
  const a = k("prismic").answer("/api/v2/documents/search", q('q=[[at(document.type,"post")]]'), {
    results: [{
      id: "YLx1",
      type: "post",
      last_publication_date: "2026-01-01T00:00:00+0000",
      data: { author: { id: "Au1", type: "author", link_type: "Document" }, hero: { url: "x" } },
    }],
  });
  assertEquals([a.ids.sort(), a.types, a.list], [["Au1", "YLx1"], ["post"], true]);
  const payload = {
    type: "api-update",
    masterRef: "ZXx",
    releases: {},
    masks: {},
    tags: {},
    experiments: {},
    documents: ["YLx1", "YLx2"],
    domain: "my-repo",
    apiUrl: "https://my-repo.prismic.io/api",
    secret: null,
  };
  assertEquals(k("prismic").notice(noHeaders, payload), {
    action: "publish",
    ids: ["YLx1", "YLx2"],
    types: null,
    revisions: {},
  });
});

Deno.test("bounds: past MAX_ANSWER_TAGS an answer is wide; past MAX_NOTICE_IDS a notice is none", () => {
  const many = Array.from({ length: MAX_ANSWER_TAGS + 1 }, (_, i) => ({ _id: `d${i}` }));
  assertEquals(k("sanity").answer("/data/query/p", q("query=*"), { result: many }).wide, true);
  const odd = k("sanity").answer("/data/query/p", q("query=*"), { result: [{ _id: "a b" }] });
  assertEquals(odd.wide, true, "an id that cannot be a tag");
  const ids = Array.from({ length: MAX_NOTICE_IDS + 1 }, (_, i) => `d${i}`);
  assertEquals("reason" in k("prismic").notice(noHeaders, { documents: ids }), true);
  assertEquals(ENTITIES.generic, null);
});
