/**
 * Tenants whose stored tokens can read drafts (the set-up CMS docs suggest for a site that
 * previews), on N edge instances over one KV, every CMS host mapped to one draft fake
 * (tests/fakes/draft_cms.ts). Each instance has its own cache, as on Deploy.
 */
import { edgeFixture, fixtureSnapshot, type SnapshotOverrides } from "./upstream.ts";
import { type DraftCms, startDraftCms } from "./draft_cms.ts";
import { hostMappingClient } from "./asset_host.ts";
import { writeSnapshot } from "../../lib/kv/snapshot.ts";
import { encryptSecret } from "../../lib/crypto/mod.ts";
import { TEST_ENCRYPTION_KEY } from "../harness.ts";
import { previewKey, signPreviewToken } from "../../lib/preview/link_token.ts";

/** The preview token every tenant here stores beside its API token (CANARY). */
export const PREVIEW_CANARY = "PREVIEW-CANARY-81c2";
/** Each tenant's preview-link secret (shared by every instance through KV). */
export const secretOf = (slug: string) => `cly_pvs_secret-of-${slug}`;

export const DRAFT_HOSTS = [
  "pr0j.apicdn.sanity.io",
  "pr0j.api.sanity.io",
  "api.storyblok.com",
  "acme-repo.cdn.prismic.io",
  "cdn.contentful.com",
  "preview.contentful.com",
];

/** slug → snapshot overrides (origin in `api.origin`). */
export const DRAFT_TENANTS: Record<string, SnapshotOverrides> = {
  sanity: {
    cms: "sanity",
    provider: { cms: "sanity", projectId: "pr0j", dataset: "production" },
    api: { origin: "https://pr0j.apicdn.sanity.io" },
  },
  storyblok: {
    cms: "storyblok",
    provider: { cms: "storyblok" },
    api: { origin: "https://api.storyblok.com/v2/cdn", authMode: "query", authParam: "token" },
  },
  prismic: {
    cms: "prismic",
    provider: { cms: "prismic", repository: "acme-repo" },
    api: {
      origin: "https://acme-repo.cdn.prismic.io/api/v2",
      authMode: "query",
      authParam: "access_token",
    },
  },
  contentful: { cms: "contentful", api: { origin: "https://cdn.contentful.com" } },
  "contentful-preview": { cms: "contentful", api: { origin: "https://preview.contentful.com" } },
  /** A generic tenant pointed at Sanity's API: guarded as Sanity by its host. */
  "generic-sanity": { cms: "generic", api: { origin: "https://pr0j.api.sanity.io" } },
};

/** The tenants above on `instances` edges sharing one KV; `cms` is the draft fake. */
export async function draftWorld(instances = 1, env: Record<string, string> = {}) {
  const cms: DraftCms = startDraftCms();
  const kv = await Deno.openKv(":memory:");
  const slugs = Object.keys(DRAFT_TENANTS);
  const edges: Awaited<ReturnType<typeof edgeFixture>>[] = [];
  for (let i = 0; i < instances; i++) {
    edges.push(
      await edgeFixture(null, {
        kv,
        env,
        snapshot: { slug: "unused", tenantId: 999 },
        upstream: hostMappingClient(DRAFT_HOSTS, cms),
      }),
    );
  }
  const ids: Record<string, number> = {};
  let id = 10;
  for (const slug of slugs) {
    const { api, ...rest } = DRAFT_TENANTS[slug];
    ids[slug] = id++;
    const preview = {
      secretEnc: await encryptSecret(TEST_ENCRYPTION_KEY, secretOf(slug)),
      tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, PREVIEW_CANARY),
      origin: slug === "contentful" ? "https://preview.contentful.com" : null,
    };
    await writeSnapshot(
      kv,
      await fixtureSnapshot(api?.origin ?? null, {
        ...rest,
        api,
        slug,
        tenantId: ids[slug],
        preview,
      }),
    );
  }
  return {
    cms,
    kv,
    edges,
    slugs,
    ids,
    /** A preview token for `slug` (its own secret and id unless told otherwise). */
    async link(
      slug: string,
      o: { scope?: string; ttlSeconds?: number; secret?: string; tenantId?: number } = {},
    ): Promise<string> {
      const now = Math.floor(edges[0].clock.now() / 1000);
      return await signPreviewToken(await previewKey(o.secret ?? secretOf(slug)), {
        t: o.tenantId ?? ids[slug],
        s: o.scope ?? "/~api/",
        e: now + (o.ttlSeconds ?? 7200),
      });
    },
    /** A visitor's request on a tenant host, on instance `i`. */
    request(slug: string, path: string, init: RequestInit = {}, i = 0) {
      return edges[i].request(path, init, { surface: "tenant", slug });
    },
    async [Symbol.asyncDispose]() {
      for (const e of edges) e.close();
      kv.close();
      await cms.close();
    },
  };
}
