/**
 * Drafts for nobody but editors: a visitor's request carrying a CMS's draft switch is
 * refused (400 naming the parameter; 403 for a preview-only origin) and never reaches the
 * CMS, the published content stays cached, and nothing unpublished is stored. Tenants hold
 * draft-capable tokens; the CMS is tests/fakes/draft_cms.ts (draft answers carry a mark).
 */
import { assert, assertEquals } from "./assert.ts";
import { DRAFT_MARK, PRISMIC_RELEASE_REF, PUBLISHED_MARK } from "./fakes/draft_cms.ts";
import { draftWorld } from "./fakes/draft_world.ts";

const Q = "query=" + encodeURIComponent('*[_type == "post"]');
const SANITY = "/~api/v2025-02-19/data/query/production";

async function refused(res: Response, status: number, param: string) {
  const text = await res.text();
  assertEquals(res.status, status, text);
  assert(!text.includes(DRAFT_MARK));
  const body = JSON.parse(text);
  assert(body.error.message.includes(`"${param}"`), body.error.message);
  assertEquals(res.headers.get("cache-control"), "no-store");
}

// ---- the leak reproduction (every request here leaked drafts, and its repeat was a HIT) ----

Deno.test("leak: Sanity perspective=drafts|raw|previewDrafts and GROQ on drafts.** are 400, twice, never forwarded", async () => {
  await using w = await draftWorld();
  const asks = [
    `${SANITY}?${Q}&perspective=drafts`,
    `${SANITY}?${Q}&perspective=raw`,
    `${SANITY}?${Q}&perspective=previewDrafts`,
    `${SANITY}?query=${encodeURIComponent('*[_id in path("drafts.**")]')}`,
  ];
  for (const path of asks) {
    for (let i = 0; i < 2; i++) {
      const res = await w.request("sanity", path);
      assert(res.headers.get("x-cachely-cache") !== "HIT", path);
      await refused(res, 400, path.includes("perspective") ? "perspective" : "query");
    }
  }
  assertEquals(w.cms.requests, 0);
  assertEquals(w.cms.drafts, []);
});

Deno.test("leak: Storyblok version=draft is 400, twice, never forwarded", async () => {
  await using w = await draftWorld();
  for (let i = 0; i < 2; i++) {
    const res = await w.request("storyblok", "/~api/stories?version=draft");
    assert(res.headers.get("x-cachely-cache") !== "HIT");
    await refused(res, 400, "version");
  }
  assertEquals(w.cms.requests, 0);
});

// ---- the published content stays as it was ----

Deno.test("published: Sanity perspective=published (or none: added) is cached under one key", async () => {
  await using w = await draftWorld();
  const a = await w.request("sanity", `${SANITY}?${Q}&perspective=published`);
  assertEquals(a.status, 200);
  assert((await a.text()).includes(PUBLISHED_MARK));
  const b = await w.request("sanity", `${SANITY}?${Q}`);
  assertEquals(b.headers.get("x-cachely-cache"), "HIT", "the same answer: the same key");
  await b.text();
  // an API version whose default is raw gets perspective=published added, so no drafts
  const old = await w.request("sanity", `/~api/v2021-10-21/data/query/production?${Q}`);
  assertEquals(old.status, 200);
  assert(!(await old.text()).includes(DRAFT_MARK));
  assertEquals(w.cms.drafts, []);
});

Deno.test("published: Storyblok without version or version=published is served and cached", async () => {
  await using w = await draftWorld();
  for (const q of ["", "?version=published"]) {
    const r1 = await w.request("storyblok", `/~api/stories${q}`);
    assertEquals(r1.status, 200);
    await r1.text();
    const r2 = await w.request("storyblok", `/~api/stories${q}`);
    assertEquals(r2.headers.get("x-cachely-cache"), "HIT");
    await r2.text();
  }
  assertEquals(w.cms.drafts, []);
});

Deno.test("Sanity: the drafts-excluding idiom passes; draft ids in $params, paths and old API versions do not", async () => {
  await using w = await draftWorld();
  const ok = await w.request(
    "sanity",
    `${SANITY}?query=${encodeURIComponent('*[_type=="post" && !(_id in path("drafts.**"))]')}`,
  );
  assertEquals(ok.status, 200);
  await ok.text();
  await refused(
    await w.request("sanity", `${SANITY}?query=*[_id==$id]&$id=%22drafts.abc%22`),
    400,
    "$id",
  );
  await refused(
    await w.request("sanity", `${SANITY}?query=${encodeURIComponent("sanity::versionOf('a')")}`),
    400,
    "query",
  );
  await refused(
    await w.request("sanity", "/~api/v2025-02-19/data/doc/production/drafts.abc"),
    400,
    "path",
  );
  await refused(await w.request("sanity", `/~api/v1/data/query/production?${Q}`), 400, "path");
  await refused(
    await w.request("sanity", "/~api/v2025-02-19/data/export/production"),
    400,
    "path",
  );
  assertEquals(w.cms.drafts, []);
});

Deno.test("switches in any case, encoding, repetition or separator are refused", async () => {
  await using w = await draftWorld();
  const sanity = [
    "PERSPECTIVE=drafts",
    "Perspective=raw",
    "perspective%3Ddrafts",
    "perspective%253Ddrafts",
    "%70erspective=drafts",
    "perspective=published&perspective=drafts",
    "perspective=published,drafts",
    "perspective=+drafts",
    "perspective=%20published%20x",
    "perspective[]=drafts",
    "a=1;perspective=drafts",
  ];
  for (const q of sanity) {
    const res = await w.request("sanity", `${SANITY}?${Q}&${q}`);
    assertEquals(res.status, 400, q);
    await res.text();
  }
  for (const q of ["VERSION=draft", "version=Draft", "version%3Ddraft", "from_release=12"]) {
    const res = await w.request("storyblok", `/~api/stories?${q}`);
    assertEquals(res.status, 400, q);
    await res.text();
  }
  assertEquals(w.cms.requests, 0);
});

Deno.test("the preview-bypass parameter does not open drafts", async () => {
  await using w = await draftWorld();
  await refused(
    await w.request("sanity", `${SANITY}?${Q}&perspective=drafts&cachely-preview=1`),
    400,
    "perspective",
  );
  await refused(
    await w.request("storyblok", "/~api/stories?version=draft&cachely-preview=1"),
    400,
    "version",
  );
});

Deno.test("Prismic: the master ref is served; release and preview refs are 400; a past master still serves", async () => {
  await using w = await draftWorld();
  const search = (ref: string) => `/~api/documents/search?ref=${encodeURIComponent(ref)}`;
  const master = w.cms.masterRef();
  const ok = await w.request("prismic", search(master));
  assertEquals(ok.status, 200);
  assert((await ok.text()).includes(PUBLISHED_MARK));
  const hit = await w.request("prismic", search(master));
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  await hit.text();
  await refused(await w.request("prismic", search(PRISMIC_RELEASE_REF)), 400, "ref");
  await refused(
    await w.request(
      "prismic",
      search("https://acme-repo.prismic.io/previews/abc?websitePreviewId=x"),
    ),
    400,
    "ref",
  );
  await refused(
    await w.request("prismic", `${search(master)}&REF=${PRISMIC_RELEASE_REF}`),
    400,
    "ref",
  );
  // a publish: the new master is learnt from the API root, the old one still serves
  const next = w.cms.publish();
  w.edges[0].clock.advance(2_000);
  const fresh = await w.request("prismic", search(next));
  assertEquals(fresh.status, 200);
  await fresh.text();
  const past = await w.request("prismic", search(master));
  assertEquals(past.status, 200);
  await past.text();
  // a preview cookie does not reach the CMS
  const cookie = await w.request("prismic", search(master), {
    headers: { cookie: "io.prismic.preview=https%3A%2F%2Facme-repo.prismic.io%2Fpreviews%2Fx" },
  });
  assertEquals(cookie.status, 200);
  assert(!(await cookie.text()).includes(DRAFT_MARK));
  assertEquals(w.cms.drafts, []);
});

Deno.test("Prismic: the master ref is read from the API root once and kept; unknown refs re-read it at most once a second", async () => {
  await using w = await draftWorld();
  const roots = () => w.cms.seen.filter((x) => /\/api\/v2(\?|$)/.test(x.what)).length;
  const ask = async (ref: string, page: number) => {
    const res = await w.request("prismic", `/~api/documents/search?ref=${ref}&page=${page}`);
    await res.text();
    return res.status;
  };
  const master = w.cms.masterRef();
  for (let page = 1; page <= 5; page++) assertEquals(await ask(master, page), 200);
  assertEquals(roots(), 1, "five reads with the master ref: the root read once");
  for (let i = 0; i < 5; i++) assertEquals(await ask(`unknown-${i}`, 1), 400);
  assertEquals(roots(), 1, "a burst of unknown refs within the second: no new read");
  w.edges[0].clock.advance(2_000);
  assertEquals(await ask("unknown-x", 1), 400);
  assertEquals(roots(), 2, "a second later: one more read");
  assertEquals(await ask(master, 6), 200);
  assertEquals(roots(), 2, "the master ref is still known");
  w.edges[0].clock.advance(61 * 60_000);
  assertEquals(await ask(master, 7), 200);
  assertEquals(roots(), 3, "an hour later it is confirmed again");
  assertEquals(w.cms.drafts, []);
});

Deno.test("Contentful: a Preview API origin answers visitors 403; GraphQL preview: true is 400", async () => {
  await using w = await draftWorld();
  await refused(await w.request("contentful-preview", "/~api/spaces/x/entries"), 403, "origin");
  const ok = await w.request("contentful", "/~api/spaces/x/entries");
  assertEquals(ok.status, 200);
  await ok.text();
  // `preview` is the tenant's own cache-bypass parameter by default, never a Contentful switch
  const bypass = await w.request("contentful", "/~api/spaces/x/entries?preview=1");
  assertEquals(bypass.status, 200);
  await bypass.text();
  await refused(
    await w.request(
      "contentful",
      `/~api/content/v1/spaces/x?query=${
        encodeURIComponent('{ post(id:"1", preview: true) { title } }')
      }`,
    ),
    400,
    "query",
  );
  assertEquals(w.cms.drafts, []);
});

Deno.test("a generic tenant pointed at Sanity's API is guarded as Sanity", async () => {
  await using w = await draftWorld();
  await refused(
    await w.request("generic-sanity", `${SANITY}?${Q}&perspective=drafts`),
    400,
    "perspective",
  );
  assertEquals(w.cms.requests, 0);
});
