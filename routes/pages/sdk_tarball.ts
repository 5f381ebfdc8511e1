/**
 * GET /sdk/cachely-sdk-<version>.tgz: the instance's own @cachely/sdk (lib/sdk_package), for
 * `npm install <that URL>`. The URL names the version, so the answer never changes: cached
 * for a year as immutable. Any other version is a 404 naming the one this instance serves.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { sdkTarball } from "../../lib/sdk_package/tarball.ts";

export function sdkTarballRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:file", async (c) => {
    const t = await sdkTarball();
    if (c.req.param("file") !== t.fileName) {
      return c.text(`Not found: this instance serves /sdk/${t.fileName}`, 404);
    }
    const headers = {
      "content-type": "application/gzip",
      "cache-control": "public, max-age=31536000, immutable",
      "content-disposition": `attachment; filename="${t.fileName}"`,
      etag: t.etag,
    };
    if (c.req.header("if-none-match") === t.etag) return c.body(null, 304, headers);
    return c.body(t.body, 200, headers);
  });
  return app;
}
