/**
 * Asset delivery per provider, end to end through the real edge: a
 * provider URL in an API body → the clean tenant URL the edge rewrote it to →
 * the upstream request that clean URL makes (host, path, query, Referer). Every
 * provider host resolves to one loopback fake through the fetch seam
 * (hostMappingClient), like an /etc/hosts entry. Also: ranges on each provider's
 * video path, old /~assets/ URLs, and bad input.
 */
import { assert, assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { hostMappingClient, startAssetHost } from "./fakes/asset_host.ts";
import type { ProviderConfig } from "../lib/providers/mod.ts";

const PROVIDER_HOSTS = [
  "images.ctfassets.net",
  "videos.ctfassets.net",
  "assets.ctfassets.net",
  "downloads.ctfassets.net",
  "images.prismic.io",
  "acme-repo.cdn.prismic.io",
  "prismic-io.imgix.net",
  "cdn.sanity.io",
  "acme-shop.myshopify.com",
  "cdn.shopify.com",
  "res.cloudinary.com",
  "acme.imgix.net",
  "a.storyblok.com",
  "a-us.storyblok.com",
  "bucket.s3.amazonaws.com",
  "media.example.org",
];

const WEBSITE = "www.acme.example";

/** One provider tenant: edge + API fake + asset fake, all hosts mapped to the fake. */
async function providerTenant(provider: ProviderConfig) {
  const host = startAssetHost();
  const api = startUpstream();
  const fx = await edgeFixture(api.url, {
    env: { IMAGE_HOST_ASSET_ORIGIN: "https://res.cloudinary.com" },
    snapshot: {
      cms: provider.cms,
      cloudName: provider.cloudName ?? null,
      provider,
      assets: {
        ttl: 86400,
        allowedTypes: null,
        blockBots: true,
        allowImageSearchBots: false,
        referer: `https://${WEBSITE}/`,
      },
    },
    upstream: hostMappingClient(PROVIDER_HOSTS, host),
  });
  return {
    host,
    api,
    fx,
    async [Symbol.asyncDispose]() {
      fx.close();
      await host.close();
      await api.close();
    },
  };
}

type Row = {
  provider: ProviderConfig;
  /** A provider URL as the CMS API returns it. */
  source: string;
  /** The clean tenant path + query it becomes. */
  clean: string;
  /** The upstream request the clean URL makes: host, path, query. */
  upstream: [string, string, string];
};

const TABLE: Row[] = [
  {
    provider: { cms: "contentful", spaceId: "sp4ce" },
    source: "https://images.ctfassets.net/sp4ce/a1/t0k/cat.jpg?w=400&fm=webp",
    clean: "/a1/t0k/cat.jpg?w=400&fm=webp",
    upstream: ["images.ctfassets.net", "/sp4ce/a1/t0k/cat.jpg", "fm=webp&w=400"],
  },
  {
    provider: { cms: "contentful", spaceId: "sp4ce" },
    source: "//videos.ctfassets.net/sp4ce/a2/t0k/clip.mp4",
    clean: "/a2/t0k/clip.mp4",
    upstream: ["videos.ctfassets.net", "/sp4ce/a2/t0k/clip.mp4", ""],
  },
  {
    provider: { cms: "contentful", spaceId: "sp4ce" },
    source: "https://downloads.ctfassets.net/sp4ce/a3/t0k/report.pdf?utm_source=x",
    clean: "/a3/t0k/report.pdf?utm_source=x",
    upstream: ["assets.ctfassets.net", "/sp4ce/a3/t0k/report.pdf", ""],
  },
  {
    provider: { cms: "prismic", repository: "acme-repo" },
    source: "https://images.prismic.io/acme-repo/abc_hero.png?w=800&auto=format",
    clean: "/acme-repo/abc_hero.png?w=800&auto=format",
    upstream: ["images.prismic.io", "/acme-repo/abc_hero.png", "auto=format&w=800"],
  },
  {
    provider: { cms: "prismic", repository: "acme-repo" },
    source: "https://acme-repo.cdn.prismic.io/acme-repo/def_clip.mp4",
    clean: "/acme-repo/def_clip.mp4",
    upstream: ["acme-repo.cdn.prismic.io", "/acme-repo/def_clip.mp4", ""],
  },
  {
    provider: { cms: "prismic", repository: "acme-repo" },
    source: "https://prismic-io.imgix.net/acme-repo/old.png?h=10",
    clean: "/acme-repo/old.png?h=10",
    upstream: ["images.prismic.io", "/acme-repo/old.png", "h=10"],
  },
  {
    provider: { cms: "sanity", projectId: "pr0j", dataset: "production" },
    source: "https://cdn.sanity.io/images/pr0j/production/abc-1200x800.png?w=300&h=200",
    clean: "/abc-1200x800.png?w=300&h=200",
    upstream: ["cdn.sanity.io", "/images/pr0j/production/abc-1200x800.png", "h=200&w=300"],
  },
  {
    provider: { cms: "sanity", projectId: "pr0j", dataset: "production" },
    source: "https://cdn.sanity.io/files/pr0j/production/def.pdf?dl=",
    clean: "/def.pdf?dl=",
    upstream: ["cdn.sanity.io", "/files/pr0j/production/def.pdf", ""],
  },
  {
    provider: { cms: "sanity", projectId: "pr0j", dataset: "production" },
    source: "https://cdn.sanity.io/files/pr0j/production/ghi.mp4",
    clean: "/ghi.mp4",
    upstream: ["cdn.sanity.io", "/files/pr0j/production/ghi.mp4", ""],
  },
  {
    provider: { cms: "shopify", storeDomain: "acme-shop.myshopify.com" },
    source: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.png?v=17&width=600",
    clean: "/cdn/shop/files/tote.png?v=17&width=600",
    upstream: ["acme-shop.myshopify.com", "/cdn/shop/files/tote.png", "v=17&width=600"],
  },
  {
    provider: { cms: "shopify", storeDomain: "acme-shop.myshopify.com" },
    source: "https://cdn.shopify.com/videos/c/o/v/abc123.mp4",
    clean: "/cdn/shop/videos/c/o/v/abc123.mp4",
    upstream: ["acme-shop.myshopify.com", "/cdn/shop/videos/c/o/v/abc123.mp4", ""],
  },
  {
    provider: { cms: "cloudinary", cloudName: "demo" },
    source: "https://res.cloudinary.com/demo/image/upload/w_800,c_fill/v1/a.png?_a=x",
    clean: "/image/upload/w_800,c_fill/v1/a.png?_a=x",
    upstream: ["res.cloudinary.com", "/demo/image/upload/w_800,c_fill/v1/a.png", ""],
  },
  {
    provider: { cms: "cloudinary", cloudName: "demo" },
    source: "https://res.cloudinary.com/demo/video/upload/v1/clip.mp4",
    clean: "/video/upload/v1/clip.mp4",
    upstream: ["res.cloudinary.com", "/demo/video/upload/v1/clip.mp4", ""],
  },
  {
    provider: { cms: "imgix", imgixDomain: "acme.imgix.net" },
    source: "https://acme.imgix.net/photos/alps.png?w=1200&auto=format&fit=crop",
    clean: "/photos/alps.png?w=1200&auto=format&fit=crop",
    upstream: ["acme.imgix.net", "/photos/alps.png", "auto=format&fit=crop&w=1200"],
  },
  {
    provider: { cms: "imgix", imgixDomain: "acme.imgix.net" },
    source: "https://acme.imgix.net/clips/a.mp4",
    clean: "/clips/a.mp4",
    upstream: ["acme.imgix.net", "/clips/a.mp4", ""],
  },
  {
    provider: { cms: "storyblok" },
    source: "https://a.storyblok.com/f/12345/800x600/abc/hero.png/m/400x0",
    clean: "/f/12345/800x600/abc/hero.png/m/400x0",
    upstream: ["a.storyblok.com", "/f/12345/800x600/abc/hero.png/m/400x0", ""],
  },
  {
    provider: { cms: "storyblok", region: "us" },
    source: "https://a-us.storyblok.com/f/1/x/clip.mp4",
    clean: "/f/1/x/clip.mp4",
    upstream: ["a-us.storyblok.com", "/f/1/x/clip.mp4", ""],
  },
  {
    provider: {
      cms: "generic",
      originUrl: "https://bucket.s3.amazonaws.com/site",
      videoOrigin: "https://media.example.org",
    },
    source: "https://bucket.s3.amazonaws.com/site/img/a.webp?X-Amz-Expires=60",
    clean: "/img/a.webp?X-Amz-Expires=60",
    upstream: ["bucket.s3.amazonaws.com", "/site/img/a.webp", "X-Amz-Expires=60"],
  },
  {
    provider: {
      cms: "generic",
      originUrl: "https://bucket.s3.amazonaws.com/site",
      videoOrigin: "https://media.example.org",
    },
    source: "https://media.example.org/v/a.mp4",
    clean: "/v/a.mp4",
    upstream: ["media.example.org", "/v/a.mp4", ""],
  },
];

Deno.test("providers: source URL → clean tenant URL → upstream host, path, query and Referer", async () => {
  for (const row of TABLE) {
    const label = `${row.provider.cms} ${row.source}`;
    await using t = await providerTenant(row.provider);
    // 1. the API body as the CMS sends it, plain and inside rich text
    t.api.route(
      "/doc",
      () => Response.json({ u: row.source, html: `<p><img src="${row.source}"></p>` }),
    );
    const doc = await (await t.fx.request("/~api/doc")).json();
    const clean = `${t.fx.origin}${row.clean}`;
    assertEquals(doc.u, clean, label);
    assertEquals(doc.html, `<p><img src="${clean}"></p>`, label);
    // 2. the clean URL, served by the tenant host
    const r = await t.fx.request(row.clean);
    assertEquals(r.status, 200, label);
    assertEquals(r.headers.get("x-content-type-options"), "nosniff", label);
    assertEquals(r.headers.get("x-cache"), "MISS", label);
    await r.arrayBuffer();
    // 3. the upstream request it made
    const seen = t.host.seen.at(-1)!;
    assertEquals([seen.hostHeader, seen.path, seen.query], row.upstream, label);
    assertEquals(seen.headers.get("referer"), `https://${WEBSITE}/`, label);
    // 4. a second request is a hit under the same (sorted) key
    const again = await t.fx.request(row.clean);
    assertEquals(again.headers.get("x-cachely-cache"), "HIT", label);
    await again.arrayBuffer();
  }
});

Deno.test("providers: rendering parameters are in the key in any order, tracking ones are not", async () => {
  await using t = await providerTenant({ cms: "imgix", imgixDomain: "acme.imgix.net" });
  await t.fx.update({ api: { previewParam: "preview" } });
  await (await t.fx.request("/p/a.png?w=10&h=20")).arrayBuffer();
  const same = await t.fx.request("/p/a.png?h=20&utm_source=news&w=10&preview=1");
  assertEquals(same.headers.get("x-cachely-cache"), "HIT");
  await same.arrayBuffer();
  const other = await t.fx.request("/p/a.png?w=11&h=20");
  assertEquals(other.headers.get("x-cachely-cache"), "MISS");
  await other.arrayBuffer();
  assertEquals(t.host.seen.map((s) => s.query), ["h=20&w=10", "h=20&w=11"]);
});

Deno.test("providers: the preview-bypass parameter is never forwarded to an asset origin", async () => {
  await using t = await providerTenant({ cms: "imgix", imgixDomain: "acme.imgix.net" });
  await t.fx.update({ api: { previewParam: "preview" } });
  await (await t.fx.request("/p/b.png?preview=1&w=5")).arrayBuffer();
  assertEquals(t.host.seen.at(-1)!.query, "w=5");
});

Deno.test("providers: ranges on each provider's video path reach the video origin", async () => {
  const videos = TABLE.filter((r) => r.clean.split("?")[0].endsWith(".mp4"));
  assertEquals(videos.length >= 7, true);
  for (const row of videos) {
    const label = `${row.provider.cms} ${row.clean}`;
    await using t = await providerTenant(row.provider);
    const r = await t.fx.request(row.clean, { headers: { range: "bytes=100-199" } });
    assertEquals(r.status, 206, label);
    assertEquals(r.headers.get("content-range"), "bytes 100-199/1000", label);
    assertEquals(r.headers.get("content-type"), "video/mp4", label);
    assertEquals((await r.arrayBuffer()).byteLength, 100, label);
    const seen = t.host.seen.at(-1)!;
    assertEquals([seen.hostHeader, seen.path], row.upstream.slice(0, 2), label);
    // a closed range is fetched as the aligned 1 MiB slice that holds it (edge/slices.ts)
    assertEquals(seen.headers.get("range"), "bytes=0-1048575", label);
    assertEquals(seen.headers.get("referer"), `https://${WEBSITE}/`, label);
  }
});

Deno.test("old /~assets/ URLs answer 301 to the clean form when the identifier maps them", async () => {
  await using t = await providerTenant({ cms: "contentful", spaceId: "sp4ce" });
  const r = await t.fx.request("/~assets/images.ctfassets.net/sp4ce/a/t/cat.jpg?w=10");
  assertEquals(r.status, 301);
  assertEquals(r.headers.get("location"), `${t.fx.origin}/a/t/cat.jpg?w=10`);
  assertEquals(r.headers.get("x-content-type-options"), "nosniff");
  // following it serves the asset
  const follow = await t.fx.request(new URL(r.headers.get("location")!).pathname + "?w=10");
  assertEquals(follow.status, 200);
  await follow.arrayBuffer();
  // another space's URL is not this tenant's: 404, never fetched
  const other = await t.fx.request("/~assets/images.ctfassets.net/other/a/t/cat.jpg");
  await other.body?.cancel();
  assertEquals(other.status, 404);
  assertEquals(t.host.seen.length, 1);
});

Deno.test("old /~assets/ URLs of a legacy host without a clean form are still served", async () => {
  await using t = await providerTenant({ cms: "storyblok" });
  const r = await t.fx.request("/~assets/img2.storyblok.com/400x300/f/1/x.png");
  // img2 is on the legacy list but not mapped to the fake: the point is it is routed, not 404
  assert(r.status !== 404, `got ${r.status}`);
  await r.body?.cancel();
  const moved = await t.fx.request("/~assets/a.storyblok.com/f/1/x.png");
  assertEquals(moved.status, 301);
  assertEquals(moved.headers.get("location"), `${t.fx.origin}/f/1/x.png`);
});

Deno.test("bad input: encoded separators and dots are 400 on clean and old URLs, never fetched", async () => {
  await using t = await providerTenant({ cms: "contentful", spaceId: "sp4ce" });
  for (
    const p of [
      // (`..` and `%2e%2e` segments are resolved by the URL parser before the edge sees them)
      "/a/t%2fx/cat.jpg",
      "/a/t%5cx/cat.jpg",
      "/a/t/%2e%2e%2fcat.jpg",
      "/~assets/images.ctfassets.net/sp4ce/a%2fb/c.jpg",
      "/~assets/images.ctfassets.net/sp4ce/a/%2e%2e%5cb.jpg",
    ]
  ) {
    const r = await t.fx.request(p);
    assertEquals(r.status, 400, p);
    assertEquals((await r.json()).error.code, "invalid_path", p);
  }
  assertEquals(t.host.seen.length, 0);
});

Deno.test("beside a website, only recognisable asset paths are assets; the rest is the site's", async () => {
  await using t = await providerTenant({ cms: "imgix", imgixDomain: "acme.imgix.net" });
  const site = startUpstream();
  try {
    site.route(
      "/about",
      () => new Response("<p>about</p>", { headers: { "content-type": "text/html" } }),
    );
    await t.fx.update({ website: { origin: site.url, siteProxy: true } });
    const preview = { surface: "preview" as const, slug: "acme" };
    const page = await t.fx.request("/about", {}, preview);
    assertEquals(await page.text(), "<p>about</p>");
    const img = await t.fx.request("/photos/a.png?w=5", {}, preview);
    assertEquals(img.status, 200);
    await img.arrayBuffer();
    assertEquals(t.host.seen.map((s) => s.path), ["/photos/a.png"]);
    assertEquals(site.seen.map((s) => s.path), ["/about"]);
    // on the plain tenant host every path is the provider's
    const plain = await t.fx.request("/about");
    await plain.body?.cancel();
    assertEquals(t.host.seen.at(-1)!.path, "/about");
  } finally {
    await site.close();
  }
});
