/**
 * Editors' previews at the edge: a signed preview link opens the draft switches with the
 * tenant's preview credential; its answers are private, never stored and never served to
 * anyone else; an expired, forged, foreign or out-of-scope link is 403 with a clear message.
 * Tenants and the draft fake as in edge_drafts_test.ts (tests/fakes/draft_world.ts).
 */
import { assert, assertEquals } from "./assert.ts";
import { DRAFT_MARK, PRISMIC_RELEASE_REF, PUBLISHED_MARK } from "./fakes/draft_cms.ts";
import { draftWorld, PREVIEW_CANARY } from "./fakes/draft_world.ts";
import { CANARY, edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { PREVIEW_TOKEN_PARAM } from "../lib/preview/link_token.ts";

const SANITY = "/~api/v2025-02-19/data/query/production";
const Q = "query=" + encodeURIComponent('*[_type == "post"]');
const withLink = (path: string, token: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${PREVIEW_TOKEN_PARAM}=${token}`;

async function forbidden(res: Response, message: string) {
  const text = await res.text();
  assertEquals(res.status, 403, text);
  assertEquals(JSON.parse(text).error.message, message);
  assert(!text.includes(DRAFT_MARK));
}

Deno.test("a valid link: drafts with the preview token, private no-store, never stored, on every instance", async () => {
  await using w = await draftWorld(2);
  const token = await w.link("sanity");
  for (const i of [0, 1, 0]) {
    const res = await w.request(
      "sanity",
      withLink(`${SANITY}?${Q}&perspective=drafts`, token),
      {},
      i,
    );
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    assertEquals(res.headers.get("x-cachely-cache"), "BYPASS");
    assert((await res.text()).includes(DRAFT_MARK));
  }
  const seen = w.cms.seen.at(-1)!;
  assertEquals(seen.credential, `Bearer ${PREVIEW_CANARY}`);
  assert(!seen.what.includes(PREVIEW_TOKEN_PARAM), "the link never reaches the CMS");
  // no perspective named: a preview defaults to drafts
  const def = await w.request("sanity", withLink(`${SANITY}?${Q}`, token));
  assert((await def.text()).includes(DRAFT_MARK));
  // visitors: still refused, and the public answer is not the preview's
  const visitor = await w.request("sanity", `${SANITY}?${Q}&perspective=drafts`);
  assertEquals(visitor.status, 400);
  await visitor.text();
  const pub = await w.request("sanity", `${SANITY}?${Q}`);
  assertEquals(pub.headers.get("x-cachely-cache"), "MISS");
  assert((await pub.text()).includes(PUBLISHED_MARK));
  assertEquals(w.cms.seen.at(-1)!.credential, `Bearer ${CANARY}`);
  for (const e of w.edges) {
    for (const key of e.edge.cache.lru.keys()) {
      const body = new TextDecoder().decode(e.edge.cache.peek(key)!.body);
      assert(!body.includes(DRAFT_MARK), key);
    }
  }
});

Deno.test("a preview request never gets the cached public answer", async () => {
  await using w = await draftWorld();
  const a = await w.request("storyblok", "/~api/stories");
  await a.text();
  const hit = await w.request("storyblok", "/~api/stories");
  assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
  await hit.text();
  const token = await w.link("storyblok");
  const p = await w.request("storyblok", withLink("/~api/stories", token));
  assertEquals(p.headers.get("x-cachely-cache"), "BYPASS");
  assert((await p.text()).includes(DRAFT_MARK), "version=draft by default");
  assert(w.cms.seen.at(-1)!.what.includes(`token=${PREVIEW_CANARY}`));
});

Deno.test("expired, forged, foreign and out-of-scope links are 403 with a clear message", async () => {
  await using w = await draftWorld();
  const path = `${SANITY}?${Q}&perspective=drafts`;
  const expired = await w.link("sanity", { ttlSeconds: 60 });
  w.edges[0].clock.advance(61_000);
  await forbidden(
    await w.request("sanity", withLink(path, expired)),
    "Preview link expired: ask for a new one",
  );
  const forged = await w.link("sanity", { secret: "not-the-secret" });
  await forbidden(
    await w.request("sanity", withLink(path, forged)),
    "Preview link is not valid for this site: ask for a new one",
  );
  const tampered = (await w.link("sanity")).replace(/\.([^.])/, ".X");
  await forbidden(
    await w.request("sanity", withLink(path, tampered)),
    "Preview link is not valid for this site: ask for a new one",
  );
  // a link for another tenant, on this tenant: signed with the other's secret
  const foreign = await w.link("storyblok");
  await forbidden(
    await w.request("sanity", withLink(path, foreign)),
    "Preview link is not valid for this site: ask for a new one",
  );
  // this tenant's secret but another tenant's id (a secret shared by mistake) still fails
  const otherId = await w.link("sanity", { tenantId: w.ids.storyblok });
  await forbidden(
    await w.request("sanity", withLink(path, otherId)),
    "Preview link is not valid for this site: ask for a new one",
  );
  const scoped = await w.link("sanity", { scope: "/~api/v2025-02-19/data/doc" });
  await forbidden(
    await w.request("sanity", withLink(path, scoped)),
    "Preview link does not cover this path: ask for one that does",
  );
  await forbidden(
    await w.request("sanity", withLink(path, "garbage")),
    "Preview link is not valid for this site: ask for a new one",
  );
  assertEquals(w.cms.requests, 0);
});

Deno.test("a rotated secret (a new snapshot) ends every earlier link on every instance", async () => {
  await using w = await draftWorld(2);
  const token = await w.link("storyblok");
  const ok = await w.request("storyblok", withLink("/~api/stories", token), {}, 1);
  assertEquals(ok.status, 200);
  await ok.text();
  const { encryptSecret } = await import("../lib/crypto/mod.ts");
  const { TEST_ENCRYPTION_KEY } = await import("./harness.ts");
  const { readSnapshot, writeSnapshot } = await import("../lib/kv/snapshot.ts");
  const snap = (await readSnapshot(w.kv, "storyblok"))!;
  snap.preview = { ...snap.preview!, secretEnc: await encryptSecret(TEST_ENCRYPTION_KEY, "new") };
  await writeSnapshot(w.kv, snap);
  for (const e of w.edges) e.edge.invalidate("storyblok");
  for (const i of [0, 1]) {
    await forbidden(
      await w.request("storyblok", withLink("/~api/stories", token), {}, i),
      "Preview link is not valid for this site: ask for a new one",
    );
  }
});

Deno.test("previews per CMS: Contentful's Preview API host and token, Prismic refs and the preview cookie", async () => {
  await using w = await draftWorld();
  const cf = await w.link("contentful");
  const res = await w.request("contentful", withLink("/~api/spaces/x/entries", cf));
  assertEquals(res.status, 200);
  assert((await res.text()).includes(DRAFT_MARK));
  assert(w.cms.seen.at(-1)!.what.startsWith("preview.contentful.com/spaces/x/entries"));
  assertEquals(w.cms.seen.at(-1)!.credential, `Bearer ${PREVIEW_CANARY}`);
  // a tenant whose API origin is the Preview API: visitors 403, a link opens it
  const cfp = await w.link("contentful-preview");
  const open = await w.request("contentful-preview", withLink("/~api/spaces/x/entries", cfp));
  assertEquals(open.status, 200);
  await open.text();
  const pr = await w.link("prismic");
  const rel = await w.request(
    "prismic",
    withLink(`/~api/documents/search?ref=${PRISMIC_RELEASE_REF}`, pr),
  );
  assertEquals(rel.status, 200);
  assert((await rel.text()).includes(DRAFT_MARK));
  const cookie = await w.request("prismic", withLink("/~api/documents/search", pr), {
    headers: { cookie: `io.prismic.preview=${encodeURIComponent("https://x/previews/1")}` },
  });
  assertEquals(cookie.status, 200);
  await cookie.text();
  assert(w.cms.seen.at(-1)!.what.includes("ref=https%3A%2F%2Fx%2Fpreviews%2F1"));
});

Deno.test("a site page opened with a preview link is fetched, never stored, private", async () => {
  const site = startUpstream();
  site.route(
    "/blog",
    () => new Response("<p>page</p>", { headers: { "content-type": "text/html" } }),
  );
  const fx = await edgeFixture(null, {
    snapshot: { website: { origin: site.url, siteProxy: true } },
  });
  try {
    const preview = { surface: "preview" as const, slug: "acme" };
    const path = `/blog?${PREVIEW_TOKEN_PARAM}=cpl1.x.y`;
    for (let i = 0; i < 2; i++) {
      const res = await fx.request(path, {}, preview);
      assertEquals(res.status, 200);
      assertEquals(res.headers.get("cache-control"), "private, no-store");
      assertEquals(res.headers.get("x-cachely-cache"), "BYPASS");
      await res.text();
    }
    assertEquals(site.count("/blog"), 2);
    const plain = await fx.request("/blog", {}, preview);
    assertEquals(plain.headers.get("x-cachely-cache"), "MISS");
    await plain.text();
    const hit = await fx.request("/blog", {}, preview);
    assertEquals(hit.headers.get("x-cachely-cache"), "HIT");
    await hit.text();
  } finally {
    fx.close();
    await site.close();
  }
});
