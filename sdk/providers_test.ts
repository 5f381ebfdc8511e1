import { assertEquals } from "../tests/assert.ts";
import {
  compileProviderRoutes,
  createProviderRewriter,
  deriveOrigins,
  describeProvider,
  fileClassOf,
  type ProviderConfig,
  validateProviderConfig,
} from "./providers.ts";

const T = "https://acme.cachely.example";

/** source URL → clean URL → upstream origin + path + query policy, per provider. */
const TABLE: Array<[ProviderConfig, string, string, string | null]> = [
  [
    { cms: "contentful", spaceId: "space1" },
    "https://images.ctfassets.net/space1/a1/t0k/cat.jpg?w=400",
    `${T}/a1/t0k/cat.jpg?w=400`,
    "https://images.ctfassets.net/space1/a1/t0k/cat.jpg keep",
  ],
  [
    { cms: "contentful", spaceId: "space1" },
    "//videos.ctfassets.net/space1/a1/t0k/clip.mp4",
    `${T}/a1/t0k/clip.mp4`,
    "https://videos.ctfassets.net/space1/a1/t0k/clip.mp4 drop",
  ],
  [
    { cms: "contentful", spaceId: "space1" },
    "https://downloads.ctfassets.net/space1/a1/t0k/doc.pdf",
    `${T}/a1/t0k/doc.pdf`,
    "https://assets.ctfassets.net/space1/a1/t0k/doc.pdf drop",
  ],
  [
    { cms: "prismic", repository: "acme-repo" },
    "https://images.prismic.io/acme-repo/abc_hero.png?auto=format&w=800",
    `${T}/acme-repo/abc_hero.png?auto=format&w=800`,
    "https://images.prismic.io/acme-repo/abc_hero.png keep",
  ],
  [
    { cms: "prismic", repository: "acme-repo" },
    "https://acme-repo.cdn.prismic.io/acme-repo/xyz_clip.mp4",
    `${T}/acme-repo/xyz_clip.mp4`,
    "https://acme-repo.cdn.prismic.io/acme-repo/xyz_clip.mp4 keep",
  ],
  [
    { cms: "prismic", repository: "acme-repo" },
    "https://prismic-io.imgix.net/acme-repo/old.jpg?w=10",
    `${T}/acme-repo/old.jpg?w=10`,
    "https://images.prismic.io/acme-repo/old.jpg keep",
  ],
  [
    { cms: "sanity", projectId: "p1x", dataset: "staging" },
    "https://cdn.sanity.io/images/p1x/staging/abc-1200x800.jpg?w=300",
    `${T}/abc-1200x800.jpg?w=300`,
    "https://cdn.sanity.io/images/p1x/staging/abc-1200x800.jpg keep",
  ],
  [
    { cms: "sanity", projectId: "p1x" },
    "https://cdn.sanity.io/files/p1x/production/def.pdf",
    `${T}/def.pdf`,
    "https://cdn.sanity.io/files/p1x/production/def.pdf drop",
  ],
  [
    { cms: "shopify", storeDomain: "shop.myshopify.com" },
    "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/hero.jpg?v=17&width=800",
    `${T}/cdn/shop/files/hero.jpg?v=17&width=800`,
    "https://shop.myshopify.com/cdn/shop/files/hero.jpg keep",
  ],
  [
    { cms: "shopify", storeDomain: "shop.myshopify.com" },
    "https://shop.myshopify.com/cdn/shop/files/a.png",
    `${T}/cdn/shop/files/a.png`,
    "https://shop.myshopify.com/cdn/shop/files/a.png keep",
  ],
  [
    { cms: "cloudinary", cloudName: "demo" },
    "https://res.cloudinary.com/demo/image/upload/w_800/v1/a.jpg?x=1",
    `${T}/image/upload/w_800/v1/a.jpg?x=1`,
    "https://res.cloudinary.com/demo/image/upload/w_800/v1/a.jpg drop",
  ],
  [
    { cms: "imgix", imgixDomain: "acme.imgix.net" },
    "https://acme.imgix.net/photos/a.jpg?w=300&fit=crop",
    `${T}/photos/a.jpg?w=300&fit=crop`,
    "https://acme.imgix.net/photos/a.jpg keep",
  ],
  [
    { cms: "storyblok" },
    "https://a.storyblok.com/f/12345/800x600/abc/hero.jpg/m/400x0",
    `${T}/f/12345/800x600/abc/hero.jpg/m/400x0`,
    "https://a.storyblok.com/f/12345/800x600/abc/hero.jpg/m/400x0 keep",
  ],
  [
    { cms: "storyblok", region: "us" },
    "https://a-us.storyblok.com/f/1/x.png",
    `${T}/f/1/x.png`,
    "https://a-us.storyblok.com/f/1/x.png keep",
  ],
  [
    {
      cms: "generic",
      originUrl: "https://bucket.s3.amazonaws.com/site",
      videoOrigin: "https://media.example.org",
    },
    "https://bucket.s3.amazonaws.com/site/img/a.webp",
    `${T}/img/a.webp`,
    "https://bucket.s3.amazonaws.com/site/img/a.webp keep",
  ],
  [
    {
      cms: "generic",
      originUrl: "https://bucket.s3.amazonaws.com/site",
      videoOrigin: "https://media.example.org",
    },
    "https://media.example.org/v/a.mp4",
    `${T}/v/a.mp4`,
    "https://media.example.org/v/a.mp4 keep",
  ],
];

Deno.test("providers: every source form becomes its clean URL, which routes back upstream", () => {
  for (const [cfg, source, clean, upstream] of TABLE) {
    const r = createProviderRewriter(cfg, { tenantOrigin: T });
    assertEquals(r(source), clean, source);
    const path = new URL(clean).pathname;
    const t = compileProviderRoutes(cfg).route(path);
    assertEquals(t ? `${t.origin}${t.path} ${t.query}` : null, upstream, clean);
  }
});

Deno.test("providers: JSON-escaped, protocol-relative and rich-text forms are rewritten", () => {
  const r = createProviderRewriter({ cms: "contentful", spaceId: "space1" }, { tenantOrigin: T });
  assertEquals(
    r('{"u":"https:\\/\\/images.ctfassets.net\\/space1\\/a\\/b\\/c.png"}'),
    '{"u":"https:\\/\\/acme.cachely.example\\/a\\/b\\/c.png"}',
  );
  assertEquals(
    r('<p><img src=\\"//images.ctfassets.net/space1/a/b/c.png\\"></p>'),
    `<p><img src=\\"${T}/a/b/c.png\\"></p>`,
  );
  assertEquals(r("url(http://assets.ctfassets.net/space1/a/b/f.woff2)"), `url(${T}/a/b/f.woff2)`);
  const untouched = [
    "https://images.ctfassets.net/space2/a/b/c.png",
    "https://images.ctfassets.net/space12/a/b/c.png",
    "https://images.ctfassets.net.evil.example/space1/a/b/c.png",
    "https://evil.example/https://images.ctfassets.net/space1/a/b/c.png",
  ];
  for (const u of untouched) assertEquals(r(u), u, u);
});

Deno.test("providers: the Prismic API on the repository CDN host is not an asset", () => {
  const r = createProviderRewriter({ cms: "prismic", repository: "acme" }, { tenantOrigin: T });
  const api = "https://acme.cdn.prismic.io/api/v2/documents/search?ref=x";
  assertEquals(r(api), api);
});

Deno.test("providers: the image host keeps the cloud name in the client-side form", () => {
  const r = createProviderRewriter({ cms: "cloudinary", cloudName: "demo" }, {
    tenantOrigin: T,
    keepCloudName: true,
  });
  assertEquals(
    r("https://demo-res.cloudinary.com/video/upload/v1/a.mp4"),
    `${T}/demo/video/upload/v1/a.mp4`,
  );
});

Deno.test("providers: strict routing accepts only recognisable shapes beside a site", () => {
  const g = compileProviderRoutes({ cms: "generic", originUrl: "https://o.example.com" });
  assertEquals(g.route("/about", true), null);
  assertEquals(g.route("/img/a.png", true)?.origin, "https://o.example.com");
  assertEquals(compileProviderRoutes({ cms: "storyblok" }).route("/blog/x", true), null);
  assertEquals(compileProviderRoutes({ cms: "contentful", spaceId: "s1234" }).route("/a"), null);
});

Deno.test("deriveOrigins() derives API and asset origins from one identifier", () => {
  assertEquals(
    deriveOrigins({ cms: "contentful", spaceId: "abcd" }).api,
    "https://cdn.contentful.com/spaces/abcd",
  );
  assertEquals(
    deriveOrigins({ cms: "prismic", repository: "r" }).api,
    "https://r.cdn.prismic.io/api/v2",
  );
  assertEquals(deriveOrigins({ cms: "storyblok" }).api, "https://api.storyblok.com/v2/cdn");
  assertEquals(
    deriveOrigins({ cms: "sanity", projectId: "p" }).assets.map((o) => o.url),
    ["https://cdn.sanity.io/images/p/production", "https://cdn.sanity.io/files/p/production"],
  );
  const d = describeProvider({ cms: "imgix", imgixDomain: "x.imgix.net" }, { tenantOrigin: T });
  assertEquals(d.sample?.clean, `${T}/photos/hero.jpg?w=800&auto=format`);
});

Deno.test("validateProviderConfig() names the field of a bad identifier", () => {
  const bad: Array<[ProviderConfig, string]> = [
    [{ cms: "contentful", spaceId: "a/b" }, "spaceId"],
    [{ cms: "prismic", repository: "Bad_Repo" }, "repository"],
    [{ cms: "sanity", projectId: "p..x" }, "projectId"],
    [{ cms: "sanity", projectId: "p", dataset: "../x" }, "dataset"],
    [{ cms: "shopify", storeDomain: "not a host" }, "storeDomain"],
    [{ cms: "shopify" }, "storeDomain"],
    [{ cms: "imgix", imgixDomain: "http://x.imgix.net" }, "imgixDomain"],
    [{ cms: "storyblok", region: "mars" as never }, "region"],
    [{ cms: "generic", originUrl: "http://insecure.example" }, "originUrl"],
    [{ cms: "generic", originUrl: "https://o.example/a/../b" }, "originUrl"],
  ];
  for (const [cfg, field] of bad) {
    assertEquals(validateProviderConfig(cfg)?.field, field, JSON.stringify(cfg));
  }
  assertEquals(validateProviderConfig({ cms: "contentful", spaceId: "abc123" }), null);
});

Deno.test("fileClassOf() classifies by the last extension", () => {
  assertEquals(fileClassOf("/a/b.JPG"), "image");
  assertEquals(fileClassOf("/a.b/c"), "other");
  assertEquals(fileClassOf("/x.pdf"), "document");
  assertEquals(fileClassOf("/x.mov"), "video");
});
