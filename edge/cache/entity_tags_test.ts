/**
 * Entity purges at the edge (edge/cache/entity_tags.ts through PurgeIndex): a tagged API
 * answer goes only when a purge names one of its tags; an untagged or tenant-wide one goes
 * with every entity purge; assets, and answers stored after the purge, stay.
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { lastPurgeMatching, PurgeIndex } from "./purges.ts";
import { cachedObject } from "./object.ts";
import { apiKey, assetKey } from "./keys.ts";
import { tagObject } from "./entity_tags.ts";
import { fullEntityTag, noticeTags } from "../../lib/cache/entity_tags.ts";

const T = 4;
const origin = "http://t.localhost:8000";
const obj = (storedAt: number, tags?: string[] | null) => {
  const o = cachedObject(200, [], new Uint8Array([1]), storedAt, 60_000);
  if (tags !== undefined) tagObject(o, tags);
  return o;
};

Deno.test("entity purge: tagged answers by their tags; untagged API answers tenant-wide", () => {
  const ix = new PurgeIndex();
  const tags = noticeTags({ action: "publish", ids: ["alpha"], types: ["post"], revisions: {} })
    .map((t) => fullEntityTag(T, t));
  ix.sync(T, [{ at: 100, urls: [], prefixes: [], tags }]);
  const key = apiKey(T, 1, origin, "/entries/x", "");
  assert(ix.purged(key, obj(50, ["e-alpha"])), "holds the entity");
  assert(ix.purged(key, obj(50, ["e-zeta", "ct-post", "lists"])), "a list of its type");
  assert(ix.purged(key, obj(50, ["e-zeta", "lists", "lists-untyped"])), "an untyped list");
  assert(!ix.purged(key, obj(50, ["e-beta"])), "an unrelated entry stays");
  assert(!ix.purged(key, obj(50, ["e-gamma", "ct-page", "lists"])), "a list of another type stays");
  assert(ix.purged(key, obj(50, null)), "tagged tenant-wide");
  assert(ix.purged(key, obj(50)), "never tagged (the Web Cache tier, a transform)");
  assert(!ix.purged(key, obj(150, ["e-alpha"])), "stored after the purge");
  assert(!ix.purged(assetKey(T, 1, origin, "/a.png", ""), obj(50)), "assets are no API answers");
  const kept = obj(50, ["e-beta"]);
  assert(!ix.purged(key, kept) && !ix.purged(key, kept), "checked once, cleared after");
});

Deno.test("entity purge: a type-less notice purges every list", () => {
  const ix = new PurgeIndex();
  const tags = noticeTags({ action: "publish", ids: ["101"], types: null, revisions: {} })
    .map((t) => fullEntityTag(T, t));
  ix.sync(T, [{ at: 100, urls: [], prefixes: [], tags }]);
  const key = apiKey(T, 1, origin, "/stories", "");
  assert(ix.purged(key, obj(50, ["e-7", "ct-post", "lists"])));
  assert(!ix.purged(key, obj(50, ["e-7"])), "a single story stays");
});

Deno.test("the explanation's last purge names the entity purge that reached an answer", () => {
  const tags = noticeTags({ action: "publish", ids: ["alpha"], types: ["post"], revisions: {} })
    .map((t) => fullEntityTag(T, t));
  const records = [{ at: 100, urls: [], prefixes: [], tags }];
  const key = apiKey(T, 1, origin, "/entries/x", "");
  assertEquals(lastPurgeMatching(records, key, T, obj(50, ["e-alpha"])), {
    at: 100,
    by: "tag",
    entry: fullEntityTag(T, "e-alpha"),
  });
  assertEquals(
    lastPurgeMatching(records, key, T, obj(50, null))?.entry,
    fullEntityTag(T, "entities"),
  );
  assertEquals(lastPurgeMatching(records, key, T, obj(50, ["e-beta"])), null, "unrelated");
  const asset = assetKey(T, 1, origin, "/a.png", "");
  assertEquals(lastPurgeMatching(records, asset, T, obj(50)), null, "assets are no API answers");
});
