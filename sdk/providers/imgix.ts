/**
 * imgix: a source domain (`x.imgix.net` or a custom one); any path on it. Assets only.
 *
 * @module
 */
import { fileClassOf, HOSTNAME_RE, NO_ROUTES } from "./shared.ts";
import type { ProviderKindDefinition } from "./types.ts";

export const imgix: ProviderKindDefinition<"imgix"> = {
  kind: "imgix",
  label: "imgix",
  fields: {
    imgixDomain: {
      rule: { re: HOSTNAME_RE, message: "must be an imgix source domain such as x.imgix.net" },
      label: "imgix source domain",
      hint: "x.imgix.net or a custom domain",
      placeholder: "acme.imgix.net",
    },
  },
  required: ["imgixDomain"],
  sdkRequired: ["imgixDomain"],
  origins: (cfg) =>
    cfg.imgixDomain
      ? { api: null, assets: [{ role: "source", url: `https://${cfg.imgixDomain}` }] }
      : { api: null, assets: [] },
  sources: (cfg) => cfg.imgixDomain ? [{ host: cfg.imgixDomain, path: "", clean: "" }] : [],
  /** Any path on the source domain (strict: only recognisable files). */
  routes(cfg) {
    const d = cfg.imgixDomain;
    if (!d) return NO_ROUTES;
    return {
      route(path, strict) {
        if (path === "/" || (strict && fileClassOf(path) === "other")) return null;
        return { origin: `https://${d}`, path, query: "keep", role: "source" };
      },
    };
  },
  samplePath: "/photos/hero.jpg?w=800&auto=format",
  upstream: { assetHosts: [], defaultApiOrigin: null, defaultAuthMode: "none" },
  assetsOnly: true,
  demo: {
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
  setup: {
    packages: ["@imgix/js-core", "react-imgix", "imgix-core-js"],
    envName: "IMGIX_DOMAIN",
  },
  sdk: { hostSources: (host) => [{ host, path: "", clean: "" }] },
};
