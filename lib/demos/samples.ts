/**
 * Static, realistic samples of what each provider's API returns: a couple of entries
 * with titles and asset URLs on the provider's real asset host. Pure data.
 */
import type { ProviderConfig, ProviderKind } from "../providers/mod.ts";

export type DemoSample = {
  /** The tenant's provider set-up: the one identifier of its kind. */
  provider: ProviderConfig;
  /** Upstream API origin of the example (project-specific ones use a made-up project). */
  apiOrigin: string;
  /** Path and query, the same upstream and on the tenant host. */
  path: string;
  body: unknown;
  /** One asset URL on the provider's asset host, or null when the kind rewrites none. */
  assetUrl: string | null;
};

/** The image host's example cloud (the provider's own public demo cloud). */
export const DEMO_CLOUD_NAME = "demo";

export const DEMO_SAMPLES: Record<ProviderKind, DemoSample> = {
  contentful: {
    provider: { cms: "contentful", spaceId: "demo0space" },
    apiOrigin: "https://cdn.contentful.com/spaces/demo0space",
    path: "/environments/master/entries?content_type=blogPost&limit=2",
    body: {
      sys: { type: "Array" },
      total: 2,
      skip: 0,
      limit: 2,
      items: [
        {
          sys: { id: "4BqrajvA8E6qwgkieoqmqO", type: "Entry" },
          fields: {
            title: "Static sites are dead, long live static sites",
            heroImage: {
              url:
                "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg",
            },
          },
        },
        {
          sys: { id: "31TNnjHlfaGUoMOwGGQMmW", type: "Entry" },
          fields: {
            title: "Hello world",
            heroImage: {
              url:
                "https://images.ctfassets.net/demo0space/4NzwDSDlGECGIiokKomsyI/5d2a6b3e0a/hello.png",
            },
          },
        },
      ],
    },
    assetUrl: "https://images.ctfassets.net/demo0space/6mxb2GmNAwE7xnt5RAABEA/1c5e3c1c7f/hero.jpg",
  },
  sanity: {
    provider: { cms: "sanity", projectId: "demo0proj", dataset: "production" },
    apiOrigin: "https://demo0proj.apicdn.sanity.io",
    path: "/v2021-10-21/data/query/production?query=*%5B_type%3D%3D%22post%22%5D%5B0..1%5D",
    body: {
      ms: 4,
      query: '*[_type=="post"][0..1]',
      result: [
        {
          _id: "a1b2c3d4-post-1",
          _type: "post",
          title: "Designing for the edge",
          mainImage: {
            url: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg",
          },
        },
        {
          _id: "e5f6a7b8-post-2",
          _type: "post",
          title: "Structured content 101",
          mainImage: {
            url: "https://cdn.sanity.io/images/demo0proj/production/9f8e7d6c5b4a-1600x900.png",
          },
        },
      ],
    },
    assetUrl: "https://cdn.sanity.io/images/demo0proj/production/3c5c8a1f1e2d-1200x800.jpg",
  },
  storyblok: {
    provider: { cms: "storyblok" },
    apiOrigin: "https://api.storyblok.com/v2/cdn",
    path: "/stories?starts_with=blog%2F&per_page=2",
    body: {
      stories: [
        {
          id: 101,
          name: "Launch week recap",
          full_slug: "blog/launch-week-recap",
          content: {
            component: "post",
            title: "Launch week recap",
            image: { filename: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg" },
          },
        },
        {
          id: 102,
          name: "Our roadmap",
          full_slug: "blog/our-roadmap",
          content: {
            component: "post",
            title: "Our roadmap",
            image: { filename: "https://a.storyblok.com/f/123456/1600x900/56gh78ij90/roadmap.png" },
          },
        },
      ],
      cv: 1700000000,
    },
    assetUrl: "https://a.storyblok.com/f/123456/1200x630/ab12cd34ef/launch.jpg",
  },
  prismic: {
    provider: { cms: "prismic", repository: "demo-repo" },
    apiOrigin: "https://demo-repo.cdn.prismic.io/api/v2",
    path: "/documents/search?ref=ZZdemoRef&q=%5B%5Bat(document.type%2C%22article%22)%5D%5D",
    body: {
      page: 1,
      results_per_page: 20,
      total_results_size: 2,
      results: [
        {
          id: "ZXdemo1",
          type: "article",
          uid: "edge-caching",
          data: {
            title: [{ type: "heading1", text: "Edge caching explained" }],
            cover: { url: "https://images.prismic.io/demo-repo/abc123_cover.jpg?auto=format" },
            body: [{
              type: "paragraph",
              text: "Download the report",
              spans: [{
                type: "hyperlink",
                data: { url: "https://demo-repo.cdn.prismic.io/demo-repo/xyz789_report.pdf" },
              }],
            }],
          },
        },
        {
          id: "ZXdemo2",
          type: "article",
          uid: "slices",
          data: {
            title: [{ type: "heading1", text: "Building with slices" }],
            cover: { url: "https://images.prismic.io/demo-repo/def456_slices.png?auto=format" },
          },
        },
      ],
    },
    assetUrl: "https://images.prismic.io/demo-repo/abc123_cover.jpg?auto=format",
  },
  cloudinary: {
    provider: { cms: "cloudinary", cloudName: DEMO_CLOUD_NAME },
    apiOrigin: `https://api.cloudinary.com/v1_1/${DEMO_CLOUD_NAME}`,
    path: "/resources/image?max_results=2",
    body: {
      resources: [
        {
          public_id: "samples/landscapes/beach-boat",
          format: "jpg",
          width: 1920,
          height: 1280,
          secure_url:
            "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/landscapes/beach-boat.jpg",
        },
        {
          public_id: "samples/food/dessert",
          format: "jpg",
          width: 1280,
          height: 853,
          secure_url:
            "https://res.cloudinary.com/demo/image/upload/v1700000000/samples/food/dessert.jpg",
        },
      ],
    },
    assetUrl: "https://res.cloudinary.com/demo/image/upload/w_400,c_scale/samples/food/dessert.jpg",
  },
  shopify: {
    provider: { cms: "shopify", storeDomain: "demo-store.myshopify.com" },
    apiOrigin: "https://demo-store.myshopify.com/api",
    path: "/2024-10/graphql.json?query=%7Bproducts(first%3A2)%7Bnodes%7Btitle%7D%7D%7D",
    body: {
      data: {
        products: {
          nodes: [
            {
              title: "Canvas tote",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000",
              },
              descriptionHtml:
                '<p><img src="//demo-store.myshopify.com/cdn/shop/files/tote-detail.png?width=600"></p>',
            },
            {
              title: "Enamel mug",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/mug.png?v=1700000001",
              },
            },
          ],
        },
      },
    },
    assetUrl: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000",
  },
  imgix: {
    provider: { cms: "imgix", imgixDomain: "demo-source.imgix.net" },
    apiOrigin: "https://api.example.com",
    path: "/gallery?limit=2",
    body: {
      photos: [
        { id: 1, src: "https://demo-source.imgix.net/photos/alps.jpg?w=1200&auto=format" },
        { id: 2, src: "https://demo-source.imgix.net/photos/coast.jpg?w=1200&fit=crop" },
      ],
    },
    assetUrl: "https://demo-source.imgix.net/photos/alps.jpg?w=1200&auto=format",
  },
  generic: {
    provider: { cms: "generic", originUrl: "https://static.example.com" },
    apiOrigin: "https://api.example.com",
    path: "/articles?limit=2",
    body: {
      data: [
        { id: 1, title: "Any HTTPS JSON API", image: "https://static.example.com/img/one.jpg" },
        { id: 2, title: "Cached at the edge", image: "https://static.example.com/img/two.jpg" },
      ],
    },
    assetUrl: "https://static.example.com/img/one.jpg",
  },
};
