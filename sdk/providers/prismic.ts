/**
 * Prismic: a repository name; images on images.prismic.io, files on `<repo>.cdn.prismic.io`;
 * documents by `id` (search results and fetched links), lists typed by `document.type`
 * predicates (`[at(document.type, "post")]`, `any(document.type, [...])`). Its webhook
 * (`type: "api-update"`) names the changed documents' ids in `documents`, not their types, so
 * it purges every list. Versions are refs: visitors get master refs only.
 *
 * @module
 */
import { escapePathLiteral as lit } from "../rewrite.ts";
import { answerOf, collectIds, noticeOf, record } from "../entities/types.ts";
import { fileClassOf, NO_ROUTES } from "./shared.ts";
import type { ProviderKindDefinition } from "./types.ts";

const AT = /(?:at|any)\(\s*document\.type\s*,\s*(\[[^\]]{0,2000}\]|"[^"]{1,200}")/g;
const QUOTED = /"([^"]{1,200})"/g;

/** The document types the `q` predicates of a query name. */
export function prismicTypes(qs: string[]): string[] {
  const out = new Set<string>();
  for (const q of qs) {
    for (const m of q.matchAll(AT)) for (const t of m[1].matchAll(QUOTED)) out.add(t[1]);
  }
  return [...out];
}

/** `<repo>.cdn.prismic.io` (the client's default) or `<repo>.prismic.io`, API under /api/v2. */
const API_HOST = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.(?:cdn\.)?prismic\.io$/;

export const prismic: ProviderKindDefinition<"prismic"> = {
  kind: "prismic",
  label: "Prismic",
  fields: {
    repository: {
      rule: {
        re: /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
        message: "must be a Prismic repository name (a-z, 0-9 and -)",
      },
      label: "Repository",
      hint: "from <repo>.prismic.io",
      placeholder: "my-repo",
    },
  },
  required: [],
  sdkRequired: ["repository"],
  origins(cfg) {
    const r = cfg.repository;
    if (!r) return { api: null, assets: [] };
    return {
      api: `https://${r}.cdn.prismic.io/api/v2`,
      assets: [
        { role: "images", url: `https://images.prismic.io/${r}` },
        { role: "files", url: `https://${r}.cdn.prismic.io/${r}` },
      ],
    };
  },
  sources(cfg) {
    const r = cfg.repository;
    if (!r) return [];
    const keep = `/${r}`;
    return [
      { host: "images.prismic.io", path: lit(r), clean: keep },
      { host: `${r}.cdn.prismic.io`, path: lit(r), clean: keep },
      { host: "prismic-io.imgix.net", path: lit(r), clean: keep },
      { host: "prismic-io.s3.amazonaws.com", path: lit(r), clean: keep },
    ];
  },
  /** `/<repository>/...`; images from images.prismic.io, other files from the repo CDN. */
  routes(cfg) {
    const r = cfg.repository;
    if (!r) return NO_ROUTES;
    const prefix = `/${r}/`;
    return {
      route(path) {
        if (!path.startsWith(prefix) || path.length === prefix.length) return null;
        if (fileClassOf(path) === "image") {
          return { origin: "https://images.prismic.io", path, query: "keep", role: "images" };
        }
        return { origin: `https://${r}.cdn.prismic.io`, path, query: "keep", role: "files" };
      },
    };
  },
  samplePath: "/a1b2c3d4_hero.png?auto=format,compress&w=800",
  upstream: {
    assetHosts: ["images.prismic.io", "prismic-io.s3.amazonaws.com"],
    defaultApiOrigin: null, // https://<repo>.cdn.prismic.io, repository-specific
    defaultAuthMode: "query",
    defaultAuthParam: "access_token",
  },
  entities: {
    answer(path, params, body) {
      const found = collectIds(
        body,
        (o) =>
          typeof o.id === "string" && typeof o.type === "string" &&
            (o.link_type === "Document" || "last_publication_date" in o)
            ? [o.id]
            : null,
      );
      const list = /\/documents\/search\/?$/.test(path);
      return answerOf(found, prismicTypes(params.getAll("q")), list);
    },
    notice(_headers, body) {
      const b = record(body);
      if (!b) return { reason: "the payload is not a JSON object" };
      const docs = Array.isArray(b.documents) ? b.documents : [];
      return noticeOf("publish", docs, null);
    },
  },
  drafts: {
    switches: [
      {
        name: "ref",
        visitor: "400 unless a master ref (read from the API root, cached; a recent master " +
          "ref stays valid); preview and release refs are refused",
        preview: "any ref, including the `io.prismic.preview` cookie's",
      },
    ],
    apiHost: /(^|\.)prismic\.io$/,
    previewHosts: [],
    check: () => null,
    published: [],
    refParam: "ref",
  },
  preview: {
    cookieRef(cookie) {
      const m = /(?:^|;\s*)io\.prismic\.preview=([^;]*)/.exec(cookie);
      if (!m) return null;
      try {
        return ["ref", decodeURIComponent(m[1])];
      } catch {
        return null; // an undecodable cookie names no ref
      }
    },
  },
  // Prismic: CDN bandwidth over a paid plan's allowance, 0.10 USD per GB.
  bandwidthUsdPerGb: 0.10,
  demo: {
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
  setup: {
    packages: [
      "@prismicio/client",
      "@prismicio/next",
      "@prismicio/react",
      "@prismicio/vue",
      "@nuxtjs/prismic",
    ],
    envName: "PRISMIC_REPOSITORY",
    secrets: ["PRISMIC_ACCESS_TOKEN"],
    snippet: (idExpr, t) =>
      `import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

// Replaces prismic.createClient(repositoryName, { accessToken }).
export const prismic = createCachelyPrismicClient({ repositoryName: ${idExpr}, ${t} });`,
    helper({ cfg, nuxt, variable, envRead }) {
      const name = nuxt ? "useCachelyPrismicClient" : "prismic";
      const client = `createCachelyPrismicClient({
    repositoryName: ${JSON.stringify(cfg.repository ?? "")},
    accessToken: ${envRead("PRISMIC_ACCESS_TOKEN")}, // used only without ${variable}
  })`;
      return `import { createCachelyPrismicClient } from "@cachely/sdk/prismic";

export const ${name} = ${nuxt ? `() =>\n  ${client}` : client};
`;
    },
    nuxtComposable: "composables/useCachelyPrismicClient.ts",
  },
  sdk: {
    builtIn: true,
    identifierFromApiUrl(url) {
      const m = API_HOST.exec(url.hostname);
      if (!m || url.protocol !== "https:" || !/^\/api\/v2(\/|$)/.test(url.pathname)) return null;
      return m[1];
    },
  },
};
