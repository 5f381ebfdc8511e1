/**
 * An edge whose API origin, website origin and image-host asset origin are one scripted
 * loopback origin (tests/fakes/header_origin.ts), so an HTTP caching rule can be checked on
 * every path with one script: `/~api/<name>`, `/image/upload/v1/<name>.jpg` and the site's
 * `/<name>`, all on the preview host. Dispose it with `await using`.
 */
import { edgeFixture, type SnapshotOverrides } from "./upstream.ts";
import { startHeaderOrigin } from "./header_origin.ts";
import type { EdgeCachingSettings } from "../../lib/kv/snapshot.ts";

export type PathKind = "api" | "asset" | "site";
export const PATH_KINDS: readonly PathKind[] = ["api", "asset", "site"];

const PREVIEW = { surface: "preview" as const, slug: "acme" };

/** TTLs of 60 s on every path; `caching` over fixed mode with stale-while-revalidate off. */
export async function cachingFixture(
  caching: Partial<EdgeCachingSettings> = {},
  env: Record<string, string> = {},
  snapshot: SnapshotOverrides = {},
) {
  const origin = startHeaderOrigin();
  const fx = await edgeFixture(origin.url, {
    env: { IMAGE_HOST_ASSET_ORIGIN: origin.url, ...env },
    snapshot: {
      cms: "cloudinary",
      cloudName: "demo",
      cacheTtl: 60,
      website: { origin: origin.url, siteProxy: true },
      assets: {
        ttl: 60,
        allowedTypes: null,
        blockBots: true,
        allowImageSearchBots: false,
        referer: null,
      },
      caching: {
        cacheMode: "fixed",
        staleWhileRevalidate: 0,
        ignoreSetCookie: false,
        staleWhenOriginSilent: false,
        ...caching,
      },
      ...snapshot,
    },
  });
  const pathOf = (kind: PathKind, name: string) =>
    kind === "api"
      ? `/~api/${name}`
      : kind === "asset"
      ? `/image/upload/v1/${name}.jpg`
      : `/${name}`;
  return {
    origin,
    fx,
    /** A request for `name` on one path. */
    get: async (kind: PathKind, name: string, init: RequestInit = {}) =>
      await fx.request(pathOf(kind, name), init, PREVIEW),
    /** Waits until no load (background refresh included) is in flight. */
    async settled() {
      for (let i = 0; i < 200 && fx.edge.cache.inflightCount > 0; i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async [Symbol.asyncDispose]() {
      fx.close();
      await origin.close();
    },
  };
}
