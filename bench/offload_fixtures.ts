/**
 * The in-process fixtures of the CDN offload hit benches (cdn_offload_bench.ts,
 * hit_min_batch.ts, hit_instructions.ts): a fake API upstream with a 2 KB-ish cacheable
 * JSON, a fake asset host, and two edge tenants (Cloudinary, CDN offload off and on) with
 * the production snapshot memo (EDGE_SNAPSHOT_TTL_MS 2000; the fixture's clock stands still).
 */
import { edgeFixture, startUpstream } from "../tests/fakes/upstream.ts";
import { startAssetHost } from "../tests/fakes/asset_host.ts";

/** An asset hit and an API hit of the same tenant. */
export const PATHS = { asset: "/image/upload/v1/cat.jpg", api: "/~api/data.json" };

/** Starts the fakes and both tenants; `env` adds to each tenant's configuration. */
export async function offloadFixtures(env: Record<string, string> = {}) {
  const assetHost = startAssetHost();
  const api = startUpstream();
  api.route(
    "/data.json",
    () => Response.json({ items: [1, 2, 3] }, { headers: { "cache-control": "max-age=60" } }),
  );
  const tenant = (cdnOffload: boolean) =>
    edgeFixture(api.url, {
      env: { IMAGE_HOST_ASSET_ORIGIN: assetHost.url, EDGE_SNAPSHOT_TTL_MS: "2000", ...env },
      snapshot: { cms: "cloudinary", cloudName: "demo", cdnOffload },
    });
  const off = await tenant(false);
  const on = await tenant(true);
  return {
    off,
    on,
    async close() {
      off.close();
      on.close();
      await api.close();
      await assetHost.close();
    },
  };
}
