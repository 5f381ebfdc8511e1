/**
 * "Why isn't this URL cached?": GET /api/tenants/:slug/cache/explain?url=… answers, from what
 * the edge of this instance knows (never fetching the URL), the cache key, eligibility, the
 * copy held, the last origin answer and why it was not stored, and the last matching purge.
 * Viewer+; another tenant's host or a malformed URL is a 400 naming `url`; a non-member 404.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { memberWithRole } from "./roles.ts";

const host = (slug: string) => `http://${slug}.localhost:8000`;

function startOrigin() {
  const up = startUpstream();
  const png = (headers: Record<string, string>) => () =>
    new Response("png", { headers: { "content-type": "image/png", ...headers } });
  up.route("/ok.png", png({ "cache-control": "public, max-age=60" }));
  up.route("/ns.png", png({ "cache-control": "no-store" }));
  up.route("/ck.png", png({ "cache-control": "max-age=60", "set-cookie": "a=1" }));
  up.route("/broken.png", () => new Response("down", { status: 503 }));
  return up;
}

dbTest("explain: why an asset is or is not cached, from the last origin answer", async (app) => {
  const up = startOrigin();
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { originUrl: up.url, cacheMode: "origin" });
    const api = `/api/tenants/${slug}/cache/explain`;
    const anon = new Client(app);
    const explain = (url: string) => owner.get(`${api}?url=${encodeURIComponent(url)}`);

    // Never fetched: eligible, no copy, no origin answer yet; the URL is not fetched.
    const before = await explain("/ok.png");
    assertEquals(before.status, 200, before.text);
    assertEquals(before.body.kind, "asset");
    assertEquals(before.body.cacheMode, "origin");
    assertEquals(before.body.eligible, true);
    assertEquals(before.body.stored, null);
    assertEquals(before.body.lastOriginAnswer, null);
    assertMatch(before.body.key, /^s\|\d+\|\d+\|http:\/\/.*\|\/ok\.png$/);
    assertEquals(up.count("/ok.png"), 0, "explaining never fetches");

    for (const p of ["/ok.png", "/ns.png", "/ck.png", "/broken.png"]) {
      await anon.get(`${host(slug)}${p}`);
    }
    const ok = (await explain(`${host(slug)}/ok.png`)).body;
    assertEquals(ok.stored.fresh, true);
    assertEquals(ok.stored.ttlSeconds, 60);
    assertEquals(ok.stored.status, 200);
    assertEquals(ok.lastOriginAnswer.stored, true);
    assertEquals(ok.lastOriginAnswer.originStatus, 200);
    assertEquals(ok.lastOriginAnswer.notStoredBecause, null);

    const why = async (p: string) => (await explain(p)).body.lastOriginAnswer;
    assertEquals((await why("/ns.png")).notStoredBecause, "no-store");
    assertEquals((await why("/ck.png")).notStoredBecause, "set-cookie");
    const broken = await why("/broken.png");
    assertEquals([broken.originStatus, broken.stored], [503, false]);
    assertEquals((await explain("/ns.png")).body.stored, null);

    // A purge that names the URL: the last purge, and the copy stored before it is purged.
    const purge = await owner.post(`/api/tenants/${slug}/purge`, { urls: ["/ok.png"] });
    assertEquals(purge.status, 200, purge.text);
    const purged = (await explain("/ok.png")).body;
    assertEquals([purged.lastPurge.by, purged.lastPurge.entry], ["url", "/ok.png"]);
    assertEquals(purged.stored.purged, true);
    assertEquals((await explain("/ns.png")).body.lastPurge, null);
  } finally {
    await up.close();
  }
});

dbTest("explain: eligibility — method, bypass parameter, path kind", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: "http://127.0.0.1:9" });
  const api = `/api/tenants/${slug}/cache/explain`;
  const get = async (q: string) => (await owner.get(`${api}?${q}`)).body;

  const plain = await get("url=/~api/entries?b=2%26a=1");
  assertEquals([plain.kind, plain.eligible, plain.blockers], ["api", true, []]);
  assertMatch(plain.key, /\|\/entries\?a=1&b=2$/);

  const post = await get("url=/~api/entries&method=post");
  assertEquals(post.eligible, false);
  assertEquals(post.blockers.map((b: { code: string }) => b.code), ["method"]);

  const preview = await get("url=/~api/entries?preview=1");
  assertEquals(preview.eligible, false);
  assertEquals(preview.blockers.map((b: { code: string }) => b.code), ["bypass-param"]);

  const other = await get("url=/about");
  assertEquals([other.kind, other.eligible, other.key], ["other", false, null]);
});

dbTest("explain: access and bad input", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const otherSlug = await createTenant(await signUp(app));
  const api = `/api/tenants/${slug}/cache/explain`;

  const viewer = await memberWithRole(app, owner, slug, "viewer");
  assertEquals((await viewer.get(`${api}?url=/a.png`)).status, 200);

  // Another tenant's members, and anonymous callers, learn nothing of it.
  const stranger = await signUp(app);
  assertEquals((await stranger.get(`${api}?url=/a.png`)).status, 404);
  assertEquals((await new Client(app).get(`${api}?url=/a.png`)).status, 401);

  for (
    const [q, field] of [
      ["", "url"],
      ["url=", "url"],
      ["url=ftp://x/a.png", "url"],
      ["url=//evil.example/a", "url"],
      [`url=${encodeURIComponent(`${host(otherSlug)}/a.png`)}`, "url"],
      ["url=http://169.254.169.254/latest", "url"],
      ["url=/a.png&method=G%20T", "method"],
    ]
  ) {
    const r = await owner.get(`${api}?${q}`);
    assertEquals(r.status, 400, `${q}: ${r.text}`);
    assert(
      r.body.error.details.fields.some((f: { path: string }) => f.path === field),
      `${q} names ${field}: ${r.text}`,
    );
  }
});

dbTest("explain: in the OpenAPI document", async (app) => {
  const doc = (await new Client(app).get("/api/openapi.json")).body;
  assert(doc.paths["/api/tenants/{slug}/cache/explain"]?.get, "declared");
});
