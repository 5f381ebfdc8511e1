/** GET /api/demos/:provider: public before/after samples per CMS kind. */
import { Client, dbTest } from "./harness.ts";
import { assertEquals } from "./assert.ts";
import { PROVIDER_KINDS } from "../lib/providers/mod.ts";

const TENANT = "http://demo.localhost:8000";

/** Expected asset rewrite per provider: upstream → clean tenant URL. */
const ASSETS: Record<string, [string, string]> = {
  contentful: [
    "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg",
    `${TENANT}/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg`,
  ],
  sanity: [
    "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg",
    `${TENANT}/3c5c8a1f1e2d-1200x800.jpg`,
  ],
  storyblok: [
    "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg",
    `${TENANT}/f/123456/1200x630/ab12cd34ef/launch.jpg`,
  ],
  prismic: [
    "https://images.prismic.io/demo-repo/abc123_cover.jpg?auto=format",
    `${TENANT}/demo-repo/abc123_cover.jpg?auto=format`,
  ],
  cloudinary: [
    "https://res.cloudinary.com/demo/image/upload/w_400,c_scale/samples/food/dessert.jpg",
    `${TENANT}/image/upload/w_400,c_scale/samples/food/dessert.jpg`,
  ],
  shopify: [
    "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000",
    `${TENANT}/cdn/shop/files/tote.jpg?v=1700000000`,
  ],
  imgix: [
    "https://demo-source.imgix.net/photos/alps.jpg?w=1200&auto=format",
    `${TENANT}/photos/alps.jpg?w=1200&auto=format`,
  ],
  generic: ["https://static.example.com/img/one.jpg", `${TENANT}/img/one.jpg`],
};

dbTest("demos: every provider, public and cacheable, before and after", async (app) => {
  const visitor = new Client(app);
  for (const provider of PROVIDER_KINDS) {
    const r = await visitor.get(`/api/demos/${provider}`);
    assertEquals(r.status, 200, provider);
    assertEquals(r.headers.get("cache-control"), "public, max-age=300");
    assertEquals(r.body.provider, provider);
    assertEquals(r.body.tenantOrigin, TENANT);
    const a = ASSETS[provider];
    assertEquals(
      r.body.assetExample,
      { upstreamUrl: a[0], proxiedUrl: a[1] },
      provider,
    );
    assertEquals(r.body.setup.cms, provider);
    assertEquals(r.body.origins.assets.length > 0, true, provider);
    const { path, upstreamUrl, proxiedUrl, upstream, proxied } = r.body.apiExample;
    assertEquals(proxiedUrl, `${TENANT}/~api${path}`, "the API proxy lives under /~api/");
    assertEquals(upstreamUrl.endsWith(path), true);
    const up = JSON.stringify(upstream);
    const px = JSON.stringify(proxied);
    // Every upstream asset URL is rewritten; none of the provider's host is left.
    const host = new URL(a[0]).host;
    assertEquals(up.includes(`https://${host}/`), true, provider);
    assertEquals(px.includes(`https://${host}/`), false, provider);
    assertEquals(
      px.split(TENANT).length - 1 >= up.split(`https://${host}/`).length - 1,
      true,
      provider,
    );
  }
  const labels = await Promise.all(
    ["contentful", "cloudinary", "generic"].map(async (p) =>
      (await visitor.get(`/api/demos/${p}`)).body.label
    ),
  );
  assertEquals(labels, ["Contentful", "Cloudinary", "Generic HTTPS origin"]);
});

dbTest("demos: contentful entries rewritten in place", async (app) => {
  const r = await new Client(app).get("/api/demos/contentful");
  assertEquals(
    r.body.apiExample.proxied.items[1].fields.heroImage.url,
    `${TENANT}/4NzwDSDlGECGIiokKomsyI/5d2a6b3e0a/hello.png`,
  );
  assertEquals(r.body.apiExample.proxied.items[1].fields.title, "Hello world");
  assertEquals(
    r.body.apiExample.upstreamUrl,
    "https://cdn.contentful.com/spaces/demo0space/environments/master/entries?content_type=blogPost&limit=2",
  );
});

dbTest(
  "demos: rich text and protocol-relative URLs become clean URLs (prismic, shopify)",
  async (app) => {
    const v = new Client(app);
    const prismic = (await v.get("/api/demos/prismic")).body.apiExample.proxied;
    assertEquals(
      prismic.results[0].data.body[0].spans[0].data.url,
      `${TENANT}/demo-repo/xyz789_report.pdf`,
    );
    const shop = (await v.get("/api/demos/shopify")).body.apiExample.proxied;
    assertEquals(
      shop.data.products.nodes[0].descriptionHtml,
      `<p><img src="${TENANT}/cdn/shop/files/tote-detail.png?width=600"></p>`,
    );
  },
);

dbTest("demos: 400 malformed provider, 404 unknown, errors not cached", async (app) => {
  const visitor = new Client(app);
  for (const bad of ["Contentful", "a_b", "x".repeat(41), "%20"]) {
    const r = await visitor.get(`/api/demos/${bad}`);
    assertEquals(r.status, 400, bad);
    assertEquals(r.body.error.code, "bad_request");
    assertEquals(r.body.error.details.fields[0].path, "provider");
  }
  const r = await visitor.get("/api/demos/wordpress");
  assertEquals(r.status, 404);
  assertEquals(r.body.error, { code: "not_found", message: "Provider not found" });
  assertEquals(r.headers.get("cache-control"), "no-store");
  // A visitor's session cookie is not read here.
  visitor.cookies.set("sid", "garbage");
  assertEquals((await visitor.get("/api/demos/sanity")).status, 200);
});
