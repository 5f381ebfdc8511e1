/**
 * An edge whose asset upstream is the fake asset host on loopback, reached through the
 * edge's own HTTP client (or the client `options` give): the asset, range, slice, safety
 * and CDN-offload tests' set-up. Dispose it with `await using`.
 */
import { edgeFixture, type EdgeFixtureOptions, type SnapshotOverrides } from "./upstream.ts";
import { type FakeAssetHost, startAssetHost } from "./asset_host.ts";

export async function assetHostFixture(options: (host: FakeAssetHost) => EdgeFixtureOptions) {
  const host = startAssetHost();
  const fx = await edgeFixture(null, options(host));
  return {
    host,
    fx,
    async [Symbol.asyncDispose]() {
      fx.close();
      await host.close();
    },
  };
}

/** An image-host tenant (Cloudinary kind, cloud `demo`) whose asset origin is the fake host. */
export function imageHostFixture(
  env: Record<string, string> = {},
  snapshot: SnapshotOverrides = {},
) {
  return assetHostFixture((host) => ({
    env: { IMAGE_HOST_ASSET_ORIGIN: host.url, ...env },
    snapshot: { cms: "cloudinary", cloudName: "demo", ...snapshot },
  }));
}

/** A response's whole body. */
export const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());
