/**
 * Loopback stand-ins for the Contentful delivery API and a Prismic repository API,
 * answering the requests the official `contentful` and `@prismicio/client` packages
 * make, with asset URLs on the providers' real asset hosts (which Cachely rewrites).
 */
import { type FakeUpstream, startUpstream } from "./upstream.ts";

export const CF_SPACE = "abc123xyz";
export const PRISMIC_REPO = "my-repo";
export const CF_HERO = `//images.ctfassets.net/${CF_SPACE}/a1/tok123/hero.jpg`;
export const PRISMIC_IMAGE = `https://images.prismic.io/${PRISMIC_REPO}/abc_hero.png?auto=format`;

/** One fake serving both: Contentful under /spaces/<space>, Prismic under /api/v2. */
export function startCmsApis(): FakeUpstream {
  const api = startUpstream();
  api.route(`/spaces/${CF_SPACE}/environments/master/entries`, () =>
    Response.json({
      sys: { type: "Array" },
      total: 1,
      skip: 0,
      limit: 100,
      items: [{
        sys: {
          id: "e1",
          type: "Entry",
          locale: "en-US",
          contentType: { sys: { id: "post", type: "Link", linkType: "ContentType" } },
        },
        fields: {
          title: "Hello",
          hero: { sys: { type: "Link", linkType: "Asset", id: "a1" } },
        },
      }],
      includes: {
        Asset: [{
          sys: { id: "a1", type: "Asset", locale: "en-US" },
          fields: {
            title: "Hero",
            file: { url: CF_HERO, contentType: "image/jpeg", fileName: "hero.jpg" },
          },
        }],
      },
    }));
  const repository = () =>
    Response.json({
      refs: [{ id: "master", ref: "master-ref-1", label: "Master", isMasterRef: true }],
      bookmarks: {},
      types: { homepage: "Homepage" },
      languages: [{ id: "en-us", name: "English" }],
      tags: [],
      forms: {},
      integrationFieldsRef: null,
      experiments: { draft: [], running: [] },
      oauth_initiate: "",
      oauth_token: "",
      version: "1",
    });
  // A CMS of no built-in kind (createGenericProvider): a document naming an asset on this host.
  api.route(
    "/generic/doc",
    () => Response.json({ title: "Generic", image: `${api.url}/img/a.png` }),
  );
  api.route("/img/a.png", () =>
    new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), {
      headers: { "content-type": "image/png" },
    }));
  api.route("/api/v2", repository);
  api.route("/api/v2/", repository);
  api.route("/api/v2/documents/search", () =>
    Response.json({
      page: 1,
      results_per_page: 1,
      results_size: 1,
      total_results_size: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
      results: [{
        id: "d1",
        uid: null,
        url: null,
        type: "homepage",
        href: "",
        tags: [],
        first_publication_date: "2026-01-01T00:00:00+0000",
        last_publication_date: "2026-01-01T00:00:00+0000",
        slugs: [],
        linked_documents: [],
        lang: "en-us",
        alternate_languages: [],
        data: { title: "Welcome", image: { url: PRISMIC_IMAGE, alt: null, dimensions: null } },
      }],
    }));
  return api;
}
