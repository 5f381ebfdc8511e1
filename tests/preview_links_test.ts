/**
 * Editors' previews through the management API and the real edge of the same program: a
 * link made by an editor opens drafts with the preview credential until it expires (2 h by
 * default), a rotation ends it, a link of one tenant is worthless on another, every change
 * is audited and no secret is ever answered. The CMS is tests/fakes/draft_cms.ts (Storyblok).
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { DRAFT_MARK, PUBLISHED_MARK, startDraftCms } from "./fakes/draft_cms.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

const PUBLIC_TOKEN = "PUBLIC-TOKEN-3d1f";
const PREVIEW_TOKEN = "PREVIEW-TOKEN-a9e0";

async function storyblokTenant(app: TestApp, cmsUrl: string) {
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    cms: "storyblok",
    apiOrigin: `${cmsUrl}/v2/cdn`,
    apiAuthMode: "query",
    apiAuthHeader: "token",
    token: PUBLIC_TOKEN,
  });
  return { owner, slug, base: `/api/tenants/${slug}`, host: `http://${slug}.localhost:8000` };
}

dbTest(
  "an editor's link opens drafts with the preview token for 2 h; visitors never get them",
  async (app) => {
    const cms = startDraftCms();
    try {
      const { owner, slug, base, host } = await storyblokTenant(app, cms.url);
      const anon = new Client(app);
      assertEquals((await anon.get(`${host}/~api/stories?version=draft`)).status, 400);
      const cred = await owner.put(`${base}/preview-credential`, { token: PREVIEW_TOKEN });
      assertEquals(cred.body, { ok: true, hasToken: true, apiOrigin: null });
      const editor = await memberWithRole(app, owner, slug, "editor");
      const made = await editor.post(`${base}/preview-links`, { path: "/~api/stories" });
      assertEquals(made.status, 201);
      assertEquals(made.body.scope, "/~api/stories");
      const lifetime = Date.parse(made.body.expiresAt) - app.clock.now();
      assert(lifetime > 2 * 3600_000 - 1000 && lifetime <= 2 * 3600_000, String(lifetime));
      assert(made.body.url.startsWith(`${host}/~api/stories?cachely-preview-token=cpl1.`));
      const draft = await anon.get(`${made.body.url}&version=draft`);
      assertEquals(draft.status, 200);
      assert(draft.text.includes(DRAFT_MARK));
      assertEquals(draft.headers.get("cache-control"), "private, no-store");
      assert(cms.seen.at(-1)!.what.includes(`token=${PREVIEW_TOKEN}`));
      // the visitor next to it: published, with the public token
      const pub = await anon.get(`${host}/~api/stories`);
      assert(pub.text.includes(PUBLISHED_MARK));
      assertEquals(cms.seen.at(-1)!.credential, PUBLIC_TOKEN);
      app.clock.advance(2 * 3600_000 + 1000);
      const late = await anon.get(`${made.body.url}&version=draft`);
      assertEquals(late.status, 403);
      assertEquals(late.body.error.message, "Preview link expired: ask for a new one");
    } finally {
      await cms.close();
    }
  },
);

dbTest(
  "rotation (admin+) ends earlier links; a link is worthless on another tenant",
  async (app) => {
    const cms = startDraftCms();
    try {
      const a = await storyblokTenant(app, cms.url);
      const b = await storyblokTenant(app, cms.url);
      const anon = new Client(app);
      const link = (await a.owner.post(`${a.base}/preview-links`, { path: "/blog/post" })).body;
      assertEquals(link.scope, "/~api/", "a site page opens every API read");
      assertEquals(
        (await anon.get(`${a.host}/~api/stories?${link.url.split("?")[1]}`)).status,
        200,
      );
      await b.owner.post(`${b.base}/preview-links`, { path: "/~api/" }); // b has a secret too
      const onB = await anon.get(`${b.host}/~api/stories?${link.url.split("?")[1]}`);
      assertEquals(onB.status, 403);
      assertEquals(
        onB.body.error.message,
        "Preview link is not valid for this site: ask for a new one",
      );
      const editor = await memberWithRole(app, a.owner, a.slug, "editor");
      assertEquals((await editor.put(`${a.base}/preview-secret`)).status, 403);
      const rotated = await a.owner.put(`${a.base}/preview-secret`);
      assertEquals(rotated.status, 200);
      const after = await anon.get(`${a.host}/~api/stories?${link.url.split("?")[1]}`);
      assertEquals(after.status, 403);
      const fresh = (await a.owner.post(`${a.base}/preview-links`, { path: "/~api/" })).body;
      assertEquals((await anon.get(fresh.url)).status, 200);
    } finally {
      await cms.close();
    }
  },
);

dbTest(
  "previews are audited; the secret and the preview token are never answered, sealed in KV",
  async (app) => {
    const { owner, slug, base } = await storyblokTenant(app, "https://api.storyblok.com");
    await owner.put(`${base}/preview-credential`, {
      token: PREVIEW_TOKEN,
      apiOrigin: "https://api-us.storyblok.com/v2/cdn",
    });
    const link = await owner.post(`${base}/preview-links`, {
      path: "/~api/stories",
      ttlSeconds: 600,
    });
    await owner.put(`${base}/preview-secret`);
    await owner.put(`${base}/preview-credential`, { token: null });
    const events = (await owner.get(`${base}/audit-events?limit=50`)).body.events as {
      action: string;
      metadata: Record<string, unknown>;
    }[];
    const actions = events.map((e) => e.action);
    for (
      const a of [
        "preview_credential.updated",
        "preview_secret.created",
        "preview_link.created",
        "preview_secret.rotated",
      ]
    ) assert(actions.includes(a), `${a} in ${actions}`);
    const made = events.find((e) => e.action === "preview_link.created")!;
    assertEquals(made.metadata.expiresAt, link.body.expiresAt);
    const snap = (await readSnapshot(app.services.kv, slug))!;
    assert(snap.preview?.secretEnc, "the secret reaches the edge, sealed");
    assertEquals(snap.preview?.tokenEnc, null, "removed");
    assertEquals(snap.preview?.origin, "https://api-us.storyblok.com/v2/cdn");
    const everything = JSON.stringify([
      events,
      (await owner.get(`/api/tenants/${slug}`)).body,
      snap,
    ]);
    assert(!everything.includes("cly_pvs_"), "no plaintext secret anywhere");
    assert(!everything.includes(PREVIEW_TOKEN));
  },
);

dbTest("bad input: 400 naming the field; viewers cannot make links", async (app) => {
  const { owner, slug, base } = await storyblokTenant(app, "https://api.storyblok.com");
  for (
    const [body, field] of [
      [{ path: "blog" }, "path"],
      [{ path: "/~api/x", ttlSeconds: 10 }, "ttlSeconds"],
      [{ path: "/~api/x", ttlSeconds: 10 ** 9 }, "ttlSeconds"],
      [{}, "path"],
    ] as const
  ) {
    const r = await owner.post(`${base}/preview-links`, body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assert(JSON.stringify(r.body.error).includes(field), r.text);
  }
  const bad = await owner.put(`${base}/preview-credential`, { apiOrigin: "ftp://x" });
  assertEquals(bad.status, 400);
  assert(bad.text.includes("apiOrigin"), bad.text);
  const viewer = await memberWithRole(app, owner, slug, "viewer");
  assertEquals((await viewer.post(`${base}/preview-links`, { path: "/~api/" })).status, 403);
});
