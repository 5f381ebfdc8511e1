/**
 * The edge through the whole program (bootstrap, host routing, snapshots built
 * from Postgres): the site proxy on the preview host and custom domains, and
 * the API and image-host asset proxy for tenants created through the API.
 */
import { eq } from "drizzle-orm";
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { CANARY, startUpstream } from "./fakes/upstream.ts";
import { assetBytes, startAssetHost } from "./fakes/asset_host.ts";
import { tenants } from "../lib/db/schema/mod.ts";
import { syncTenantSnapshot } from "../lib/edge_config/sync.ts";
import { writeHostRoute } from "../lib/kv/snapshot.ts";

const PAGE = `<!doctype html><html><body>
<img src="https://images.ctfassets.net/sp/id/tok/hero.jpg?w=800">
<a href="/about">About</a></body></html>`;

function startSite() {
  const site = startUpstream();
  site.route("/", () => new Response(PAGE, { headers: { "content-type": "text/html" } }));
  site.route(
    "/about",
    () => new Response("<p>about</p>", { headers: { "content-type": "text/html" } }),
  );
  site.route(
    "/moved",
    (_req, url) =>
      new Response(null, { status: 302, headers: { location: `${url.origin}/about` } }),
  );
  return site;
}

async function siteTenant(app: TestApp, siteUrl: string, extra: Record<string, unknown> = {}) {
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    cms: "contentful",
    websiteOrigin: siteUrl,
    siteProxy: true,
    ...extra,
  });
  return { owner, slug };
}

async function bumpHtml(app: TestApp, slug: string) {
  const [t] = await app.services.db.update(tenants).set({ htmlCacheVersion: 2 })
    .where(eq(tenants.slug, slug)).returning();
  await syncTenantSnapshot(app.services, t.id);
}

// ---- happy ----

dbTest(
  "the preview host serves the website with asset URLs rewritten, cached under html version",
  async (app) => {
    const site = startSite();
    try {
      const { slug } = await siteTenant(app, site.url);
      const anon = new Client(app);
      const host = `http://${slug}.preview.localhost:8000`;
      const first = await anon.get(`${host}/`);
      assertEquals(first.status, 200);
      assertEquals(first.headers.get("x-cachely-edge"), "1");
      assertEquals(first.headers.get("x-cachely-cache"), "MISS");
      assertStringIncludes(
        first.text,
        `src="${host}/~assets/images.ctfassets.net/sp/id/tok/hero.jpg?w=800"`,
      );
      const second = await anon.get(`${host}/`);
      assertEquals(second.headers.get("x-cachely-cache"), "HIT");
      assertEquals(site.count("/"), 1);
      await bumpHtml(app, slug);
      const bumped = await anon.get(`${host}/`);
      assertEquals(bumped.headers.get("x-cachely-cache"), "MISS");
      assertEquals(site.count("/"), 2);
    } finally {
      await site.close();
    }
  },
);

dbTest("an active custom domain serves the site rewritten to that domain", async (app) => {
  const site = startSite();
  try {
    const { slug } = await siteTenant(app, site.url);
    await writeHostRoute(app.services.kv, "www.shop.test", slug);
    const anon = new Client(app);
    const page = await anon.get("http://www.shop.test/");
    assertEquals(page.status, 200);
    assertEquals(page.headers.get("x-cachely-edge"), "1");
    assertStringIncludes(page.text, `src="http://www.shop.test/~assets/images.ctfassets.net/`);
    const moved = await anon.get("http://www.shop.test/moved");
    assertEquals(moved.status, 302);
    assertEquals(moved.headers.get("location"), "/about");
  } finally {
    await site.close();
  }
});

dbTest("the API proxy works end to end for a tenant created through the API", async (app) => {
  const up = startUpstream();
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cms: "generic", apiOrigin: up.url, token: CANARY });
    const res = await new Client(app).get(`http://${slug}.localhost:8000/~api/items?x=1`);
    assertEquals(res.status, 200);
    assertEquals(res.body.path, "/items");
    assertEquals(up.seen[0].headers.get("authorization"), `Bearer ${CANARY}`);
    assert(!res.text.includes(CANARY));
  } finally {
    await up.close();
  }
});

// One asset host for the file: its URL has to be known when the app reads its environment.
const imageHost = startAssetHost();
globalThis.addEventListener("unload", () => void imageHost.close());

dbTest(
  "an image-host tenant serves /image/upload/ from IMAGE_HOST_ASSET_ORIGIN/<cloud>",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cms: "cloudinary", cloudName: "demo" });
    const path = `/image/upload/w_10/v1/${slug}.jpg`;
    const res = await app.handler(new Request(`http://${slug}.localhost:8000${path}`));
    assertEquals(res.status, 200);
    assertEquals(new Uint8Array(await res.arrayBuffer()), assetBytes(`/demo${path}`));
    assertEquals(imageHost.count(`/demo${path}`), 1);
  },
  { env: { IMAGE_HOST_ASSET_ORIGIN: imageHost.url } },
);

// ---- errors ----

dbTest(
  "the site is not served on the plain tenant host, nor when siteProxy is off",
  async (app) => {
    const site = startSite();
    try {
      const { slug } = await siteTenant(app, site.url);
      const anon = new Client(app);
      const plain = await anon.get(`http://${slug}.localhost:8000/`);
      assertEquals(plain.status, 404);
      const { slug: off } = await siteTenant(app, site.url, { siteProxy: false });
      const offRes = await anon.get(`http://${off}.preview.localhost:8000/`);
      assertEquals(offRes.status, 404);
      const post = await anon.post(`http://${slug}.preview.localhost:8000/contact`, { a: 1 });
      assertEquals(post.status, 405);
      assertEquals(site.seen.length, 0);
    } finally {
      await site.close();
    }
  },
);

dbTest("unknown tenant hosts are 404 at the edge", async (app) => {
  const anon = new Client(app);
  const res = await anon.get("http://nosuch.preview.localhost:8000/");
  assertEquals(res.status, 404);
  assertEquals(res.body.error.code, "unknown_tenant");
});
