/**
 * An image-host tenant (Cloudinary kind, cloud `demo`) whose asset origin is the fake asset
 * host on loopback, reached through the edge's own HTTP client: the range and slice tests'
 * set-up. Dispose it with `await using`.
 */
import { edgeFixture } from "./upstream.ts";
import { startAssetHost } from "./asset_host.ts";

export async function imageHostFixture(env: Record<string, string> = {}) {
  const host = startAssetHost();
  const fx = await edgeFixture(null, {
    env: { IMAGE_HOST_ASSET_ORIGIN: host.url, ...env },
    snapshot: { cms: "cloudinary", cloudName: "demo" },
  });
  return {
    host,
    fx,
    async [Symbol.asyncDispose]() {
      fx.close();
      await host.close();
    },
  };
}

/** A response's whole body. */
export const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());
