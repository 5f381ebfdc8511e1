/**
 * A fake asset host (image/video host, and the provider asset hosts reached
 * through a host-mapping fetch) on a real loopback port. Serves deterministic
 * bytes for any path, honours single byte ranges itself (so forwarded ranges
 * can be told apart from ranges cut by the edge), and counts requests per path.
 * A file name ending `_<n>b.<ext>` has n bytes (`?size=n` too, where the query is
 * kept); a path with `/norange/` ignores Range like some origins do.
 */
import { serveOnLoopback } from "../harness.ts";
import { connectTo, createHttp1Client } from "../../edge/http1/client.ts";
import type { UpstreamClient } from "../../lib/net/upstream_types.ts";

/** Every asset's Last-Modified (for If-Modified-Since tests). */
export const ASSET_LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT";

export type FakeAssetHost = {
  url: string;
  /** `host:port` of the server. */
  host: string;
  seen: Array<{ path: string; query: string; headers: Headers; hostHeader: string }>;
  count(path: string): number;
  /** Bumped by a test to change every object (its ETag) between two requests. */
  revision: number;
  close(): Promise<void>;
};

/** The bytes served for a path: `size` bytes derived from the path (default 1000). */
export function assetBytes(
  path: string,
  size = 1000,
  /** Only the bytes [from, to) of the object (a range, without making the rest). */
  from = 0,
  to = size,
): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(to - from);
  let h = 0;
  for (const c of path) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  for (let i = from; i < to; i++) out[i - from] = (h + i * 7) & 0xff;
  return out;
}

/** Content types the fake answers by extension (others: video/mp4 under /video/, else jpeg). */
const TYPE_BY_EXT: Record<string, string> = {
  png: "image/png",
  webp: "image/webp",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  mov: "video/quicktime",
  pdf: "application/pdf",
  woff2: "font/woff2",
  html: "text/html; charset=utf-8",
  js: "text/javascript",
  exe: "application/octet-stream",
  bin: "application/octet-stream",
  page: "text/html; charset=utf-8",
};

export function startAssetHost(): FakeAssetHost {
  const seen: FakeAssetHost["seen"] = [];
  let revision = 0;
  const server = serveOnLoopback((req) => {
    const url = new URL(req.url);
    seen.push({
      path: url.pathname,
      query: url.search.slice(1),
      headers: req.headers,
      hostHeader: req.headers.get("host") ?? url.host,
    });
    if (url.pathname.includes("/missing")) return new Response("not found", { status: 404 });
    if (url.pathname.endsWith(".css")) {
      return new Response(
        `body{background:url(${url.searchParams.get("ref") ?? "none"})}`,
        { headers: { "content-type": "text/css" } },
      );
    }
    const size = Number(
      url.searchParams.get("size") ?? /_(\d+)b\.\w+$/.exec(url.pathname)?.[1] ?? 1000,
    );
    const type = TYPE_BY_EXT[url.pathname.slice(url.pathname.lastIndexOf(".") + 1)] ??
      (url.pathname.includes("/video/") ? "video/mp4" : "image/jpeg");
    const common = {
      "content-type": type,
      etag: `"${url.pathname.length}-${size}${revision ? `-r${revision}` : ""}"`,
      "last-modified": ASSET_LAST_MODIFIED,
      "cache-control": "public, max-age=31536000",
      "accept-ranges": "bytes",
    };
    const range = req.headers.get("range");
    const m = range && !url.pathname.includes("/norange/")
      ? /^bytes=(\d+)-(\d*)$/.exec(range)
      : null;
    if (m) {
      const s = Number(m[1]);
      const e = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      if (s >= size) {
        return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
      }
      return new Response(assetBytes(url.pathname, size, s, e + 1), {
        status: 206,
        headers: { ...common, "content-range": `bytes ${s}-${e}/${size}`, "x-fake-ranged": "1" },
      });
    }
    return new Response(assetBytes(url.pathname, size), { headers: common });
  });
  return {
    url: server.url,
    host: new URL(server.url).host,
    seen,
    count: (path) => seen.filter((s) => s.path === path).length,
    get revision() {
      return revision;
    },
    set revision(v) {
      revision = v;
    },
    close: () => server.close(),
  };
}

/**
 * The edge's HTTP/1.1 client with connections for the given public hosts opened to the
 * fake instead (like an /etc/hosts entry); the request still names the public host (Host
 * header), which the fake records. Everything else connects as usual. The code under
 * test makes real HTTP requests over loopback.
 */
export function hostMappingClient(hosts: string[], fake: { url: string }): UpstreamClient {
  const port = Number(new URL(fake.url).port);
  return createHttp1Client({
    connect: (url) =>
      hosts.includes(url.host) ? Deno.connect({ hostname: "127.0.0.1", port }) : connectTo(url),
  });
}
