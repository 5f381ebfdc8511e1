/**
 * Static, realistic samples of what each provider's API returns: a couple of entries
 * with titles and asset URLs on the provider's real asset host. Pure data.
 */
import type { CmsKind } from "../providers/mod.ts";

export type DemoSample = {
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

export const DEMO_SAMPLES: Record<CmsKind, DemoSample> = {
  contentful: {
    apiOrigin: "https://cdn.contentful.com",
    path: "/spaces/demo0space/environments/master/entries?content_type=blogPost&limit=2",
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
    apiOrigin: "https://api.storyblok.com",
    path: "/v2/cdn/stories?starts_with=blog%2F&per_page=2",
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
    apiOrigin: "https://demo-repo.cdn.prismic.io",
    path: "/api/v2/documents/search?ref=ZZdemoRef&q=%5B%5Bat(document.type%2C%22article%22)%5D%5D",
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
  generic: {
    apiOrigin: "https://api.example.com",
    path: "/articles?limit=2",
    body: {
      data: [
        { id: 1, title: "Any HTTPS JSON API", image: "https://static.example.com/img/one.jpg" },
        { id: 2, title: "Cached at the edge", image: "https://static.example.com/img/two.jpg" },
      ],
    },
    // A generic origin has no provider asset host: its bodies are cached, not rewritten.
    assetUrl: null,
  },
};
