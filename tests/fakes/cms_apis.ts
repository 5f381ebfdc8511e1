/**
 * Loopback stand-ins for the Contentful delivery API and a Prismic repository API,
 * answering the requests the official `contentful` and `@prismicio/client` packages
 * make, with asset URLs on the providers' real asset hosts (which Cachely rewrites).
 */
import { type FakeUpstream, startUpstream } from "./upstream.ts";
import { prismicRepository, prismicSearch } from "../fixtures/prismic_bodies.mjs";

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
  const repository = () => Response.json(prismicRepository);
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
  api.route("/api/v2/documents/search", () => Response.json(prismicSearch(PRISMIC_IMAGE)));
  return api;
}
