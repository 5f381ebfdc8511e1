/**
 * CDN offload with a real nginx in front as the CDN stand-in (bench/nginx.ts, the same
 * configuration the bench uses: it keeps only responses carrying CDN-Cache-Control):
 * an asset hit is served by nginx without reaching Cachely, and refresh-cache purges it
 * through the purge hook while an API entry with other tags stays cached. nginx-light
 * has no purge module, so the purge endpoint is tests/fakes/nginx_purge.ts, which
 * deletes the cache files whose stored Cache-Tag matches (a CDN's purge by tag).
 * Skipped, with the reason printed, when nginx is not installed.
 */
import { assertEquals } from "./assert.ts";
import { createTenant, dbTest, serveOnLoopback, signUp, tenantIdOf } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { assetBytes, startAssetHost } from "./fakes/asset_host.ts";
import { startNginxPurger } from "./fakes/nginx_purge.ts";
import { type Nginx, startNginx } from "../bench/nginx.ts";

function nginxInstalled(): boolean {
  try {
    new Deno.Command("nginx", { args: ["-v"], stderr: "null" }).outputSync();
    return true;
  } catch {
    console.log("cdn_nginx_test: skipped, nginx is not installed (apt-get install nginx-light)");
    return false;
  }
}

let nginx: Nginx | null = null;
const purger = startNginxPurger(() => nginx?.cacheDir ?? null);
const assetHost = startAssetHost();
globalThis.addEventListener("unload", () => {
  void purger.close();
  void assetHost.close();
});

dbTest(
  "nginx in front: an asset hit never reaches Cachely until a bump purges it by tag",
  async (app) => {
    const api = startUpstream();
    api.route("/posts", () => Response.json({ items: [] }));
    api.route(
      "/tagged",
      () => Response.json({ t: 1 }, { headers: { "cache-tag": "post-1,home" } }),
    );
    const owner = await signUp(app);
    const slug = await createTenant(owner, {
      cms: "cloudinary",
      cloudName: "demo",
      apiOrigin: api.url,
      cdnOffload: true,
    });
    const id = await tenantIdOf(app, slug);
    const reached: string[] = [];
    const cachely = serveOnLoopback((req, info) => {
      reached.push(new URL(req.url).pathname);
      return app.handler(req, info);
    });
    const tmp = await Deno.makeTempDir({ prefix: "cachely-cdn-nginx-" });
    nginx = await startNginx(tmp, cachely.port, {
      cdn: { upstreamHost: `${slug}.localhost:8000` },
    });
    const get = async (path: string) => {
      const r = await fetch(`http://127.0.0.1:${nginx!.port}${path}`);
      const body = new Uint8Array(await r.arrayBuffer());
      // nginx appends its X-Cache to the one Cachely sent: the last value is nginx's
      const cdn = r.headers.get("x-cache")?.split(",").at(-1)?.trim() ?? null;
      return { status: r.status, cdn, r, body };
    };
    const image = "/image/upload/v1/cat.jpg";
    const count = (p: string) => reached.filter((x) => x === p).length;
    try {
      const first = await get(image);
      assertEquals([first.status, first.cdn], [200, "MISS"]);
      assertEquals(first.r.headers.get("cache-tag"), `cachely-t${id},cachely-t${id}-assets`);
      const hit = await get(image);
      assertEquals([hit.status, hit.cdn], [200, "HIT"], "served by nginx");
      assertEquals(hit.body, assetBytes("/demo/image/upload/v1/cat.jpg"));
      assertEquals(count(image), 1, "the nginx hit never reached Cachely");

      await get("/~api/posts");
      assertEquals((await get("/~api/posts")).cdn, "HIT");

      const r = await owner.post(`/api/tenants/${slug}/refresh-cache`, { type: "assets" });
      assertEquals(r.status, 200, r.text);
      assertEquals(purger.seen.at(-1), { tags: [`cachely-t${id}-assets`], removed: 1 });

      const after = await get(image);
      assertEquals([after.status, after.cdn], [200, "MISS"], "purged at nginx");
      assertEquals(count(image), 2, "the purged asset reached Cachely again");
      assertEquals(after.r.headers.get("x-cachely-cache"), "MISS", "new asset version");
      assertEquals((await get(image)).cdn, "HIT");
      assertEquals((await get("/~api/posts")).cdn, "HIT", "other tags stay at the CDN");
      assertEquals(count("/~api/posts"), 1);

      // The origin's own tag, purged by its name: the CDN gets it in the tenant's namespace,
      // the one the edge tagged the offloaded answer with.
      const tagged = await get("/~api/tagged");
      assertEquals(
        tagged.r.headers.get("cache-tag"),
        `cachely-t${id},cachely-t${id}-api,cachely-t${id}-o-post-1,cachely-t${id}-o-home`,
      );
      assertEquals((await get("/~api/tagged")).cdn, "HIT");
      app.clock.advance(1);
      const p = await owner.post(`/api/tenants/${slug}/purge`, { tags: ["post-1"] });
      assertEquals(p.status, 200, p.text);
      assertEquals(purger.seen.at(-1), { tags: [`cachely-t${id}-o-post-1`], removed: 1 });
      app.clock.advance(1);
      const again = await get("/~api/tagged");
      assertEquals([again.cdn, again.r.headers.get("x-cachely-cache")], ["MISS", "MISS"]);
      assertEquals(count("/~api/tagged"), 2, "purged at nginx and at the edge");
      assertEquals((await get("/~api/posts")).cdn, "HIT", "untagged entries stay");
    } finally {
      await nginx.stop();
      nginx = null;
      await cachely.close();
      await api.close();
      await Deno.remove(tmp, { recursive: true });
    }
  },
  {
    ignore: !nginxInstalled(),
    env: { IMAGE_HOST_ASSET_ORIGIN: assetHost.url, CDN_PURGE_URL: `${purger.url}/purge` },
  },
);
