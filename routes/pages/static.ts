/** Files under static/ (CSS, the built island bundle). Paths are allowlisted characters only. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { precompressed } from "../../lib/http/page_compression.ts";

const ROOT = new URL("../../static/", import.meta.url);
const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
};

export function staticRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/*", async (c) => {
    const rel = c.req.path.replace(/^\/static\//, "");
    if (!/^[a-z0-9_-]+(\/[a-z0-9_-]+)*\.[a-z0-9]+$/i.test(rel)) return c.notFound();
    const type = TYPES[rel.split(".").pop()!.toLowerCase()];
    if (!type) return c.notFound();
    try {
      // A bundle's copies made at build (lib/http/precompress.ts), in the coding asked for.
      const coded = rel.startsWith("build/")
        ? await precompressed(new URL(rel, ROOT), c.req.header("accept-encoding") ?? null)
        : null;
      if (coded !== null) {
        return c.body(coded.body as Uint8Array<ArrayBuffer>, 200, {
          "content-type": type,
          "cache-control": "public, max-age=300",
          "content-encoding": coded.coding,
          vary: "accept-encoding",
        });
      }
      const body = await Deno.readFile(new URL(rel, ROOT));
      return c.body(body, 200, { "content-type": type, "cache-control": "public, max-age=300" });
    } catch {
      return c.text(
        rel.startsWith("build/") ? "Not built: run `deno task build`" : "Not found",
        404,
      );
    }
  });
  return app;
}
