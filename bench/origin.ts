/**
 * The benchmark origin: a loopback HTTP server in its own process, shared by
 * Cachely and nginx. Serves the same 2 KB JSON and 200 KB image to both, and
 * counts what it served so the harness can check coalescing.
 *
 *   GET /data.json          2 KB JSON (with provider-style asset URLs, as a CMS answers)
 *   GET /image.jpg          200 KB binary, image/jpeg
 *   GET /miss/<anything>    the 2 KB JSON under a unique key (cache misses)
 *   GET /slow/<key>?ms=N    the JSON after N ms (concurrent-miss coalescing)
 *   GET /<cloud>/video/upload/<…>  50 MB video/mp4, with single byte-range support
 *   GET /__count?path=P     how many requests for exactly path P
 *
 * Run: deno run -A bench/origin.ts  → prints {"ready":true,"port":N} on stdout.
 */

/** Deterministic 2 KB JSON body. */
export function jsonBody(): Uint8Array<ArrayBuffer> {
  const items = [];
  for (let i = 0; items.length < 64; i++) {
    items.push({
      id: `entry-${i}`,
      title: `Article number ${i}`,
      image: `https://images.ctfassets.net/space/${i}/hero.jpg`,
    });
    const s = JSON.stringify({ total: items.length, items });
    if (s.length > 2048) {
      items.pop();
      break;
    }
  }
  let s = JSON.stringify({ total: items.length, items });
  s = s.slice(0, -1) + `,"pad":"${"x".repeat(Math.max(0, 2048 - s.length - 9))}"}`;
  return new TextEncoder().encode(s);
}

/** Deterministic 200 KB image-like body. */
export function imageBody(): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(200 * 1024);
  for (let i = 0; i < b.length; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** Size of the benchmark video. */
export const VIDEO_BYTES = 50 * 1024 * 1024;

/** `bytes=a-b` / `bytes=a-` / `bytes=-n` against `size`, or null (whole body). */
function singleRange(h: string | null, size: number): [number, number] | null {
  const m = h ? /^bytes=(\d*)-(\d*)$/.exec(h.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") return [Math.max(0, size - Number(m[2])), size - 1];
  return [Number(m[1]), m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]))];
}

if (import.meta.main) {
  const json = jsonBody();
  const video = new Uint8Array(VIDEO_BYTES).fill(7);
  const image = imageBody();
  const counts = new Map<string, number>();
  const jsonHeaders = { "content-type": "application/json", "cache-control": "max-age=60" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/__count") {
      return Response.json({ count: counts.get(url.searchParams.get("path") ?? "") ?? 0 });
    }
    // Only exact-path counts for the few paths the harness asks about: /miss/* keys are unique.
    if (!path.startsWith("/miss/")) counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === "/data.json" || path.startsWith("/miss/")) {
      return new Response(json, { headers: jsonHeaders });
    }
    if (path === "/image.jpg") {
      return new Response(image, {
        headers: { "content-type": "image/jpeg", "cache-control": "max-age=60" },
      });
    }
    if (path.includes("/video/upload/")) {
      const r = singleRange(req.headers.get("range"), video.length);
      const headers = {
        "content-type": "video/mp4",
        "cache-control": "max-age=3600",
        "accept-ranges": "bytes",
        "last-modified": "Sun, 01 Nov 2026 00:00:00 GMT",
      };
      if (!r) return new Response(video, { headers });
      return new Response(video.subarray(r[0], r[1] + 1), {
        status: 206,
        headers: { ...headers, "content-range": `bytes ${r[0]}-${r[1]}/${video.length}` },
      });
    }
    if (path.startsWith("/slow/")) {
      const ms = Math.min(5_000, Number(url.searchParams.get("ms") ?? 100));
      await new Promise((r) => setTimeout(r, ms));
      return new Response(json, { headers: jsonHeaders });
    }
    return new Response("not found", { status: 404 });
  });
  console.log(JSON.stringify({ ready: true, port: server.addr.port }));
}
