/**
 * The runtime's floors: a bare `Deno.serve` in its own process answering from memory with
 * the same bodies as the origin, and no proxy logic. Two shapes per body, so Cachely can be
 * compared with what the runtime itself costs for the same response:
 *
 *   GET /one/<origin path>    the body with one header (content-type)
 *   GET /same/<origin path>   the body with exactly the header set last registered for the path
 *   GET /clone/<origin path>  the same response as a clone of a prebuilt Response, with Age
 *                             set per request: the runtime's cheapest way to send that header
 *                             set (what Cachely's hit does, edge/cache/hit_templates.ts)
 *   GET /clonev/<origin path> the clone after reading If-None-Match, If-Modified-Since and
 *                             Origin, as a cache that honours validators must (a 304 when
 *                             one matches is not part of the floor: wrk sends neither)
 *   POST /__same?path=P       registers that set: a JSON array of [name, value] pairs
 *   GET /proxy/<origin path>  fetch() from ORIGIN, its body streamed back (the runtime's
 *                             floor for a proxied body too large to cache)
 *   GET /buffered/<origin path>  fetch() from ORIGIN, the body read into memory and sent
 *                             with the upstream's content-type and cache-control plus the
 *                             four headers of Cachely's miss (the runtime's floor for a
 *                             miss that is cached: a cache must hold the bytes)
 *
 * The harness registers the headers Cachely sent on a probed hit (minus `date` and
 * `content-length`, which every server adds), so the second floor tracks the header set.
 *
 * Run: deno run -A bench/floor.ts  → prints {"ready":true,"port":N} on stdout.
 * FLOOR_PORT picks the port (default 0: any free port).
 */
import { imageBody, jsonBody } from "./origin.ts";

if (import.meta.main) {
  const bodies = new Map<string, { body: Uint8Array<ArrayBuffer>; type: string }>([
    ["/data.json", { body: jsonBody(), type: "application/json" }],
    ["/image.jpg", { body: imageBody(), type: "image/jpeg" }],
  ]);
  // Headers objects, the cheapest form for Response to copy (bench/ANALYSIS.md).
  const same = new Map<string, Headers>();
  const templates = new Map<string, { res: Response; age: string | null }>();
  const port = Number(Deno.env.get("FLOOR_PORT") ?? 0);
  const origin = Deno.env.get("ORIGIN");
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
    const url = req.url;
    const start = url.indexOf("/", url.indexOf("://") + 3);
    const path = url.slice(start);
    if (path.startsWith("/one/")) {
      const b = bodies.get(path.slice(4));
      if (b) return new Response(b.body, { headers: { "content-type": b.type } });
    } else if (path.startsWith("/same/")) {
      const p = path.slice(5);
      const b = bodies.get(p);
      if (b) return new Response(b.body, { headers: same.get(p) ?? { "content-type": b.type } });
    } else if (path.startsWith("/clone/")) {
      const t = templates.get(path.slice(6));
      if (t) {
        const res = t.res.clone();
        if (t.age !== null) res.headers.set("age", t.age);
        return res;
      }
    } else if (path.startsWith("/clonev/")) {
      const t = templates.get(path.slice(7));
      if (t) {
        const h = req.headers;
        if (h.get("if-none-match") === null && h.get("if-modified-since") === null) {
          void h.get("origin");
          const res = t.res.clone();
          if (t.age !== null) res.headers.set("age", t.age);
          return res;
        }
        return new Response(null, { status: 304 });
      }
    } else if (path.startsWith("/proxy/") && origin) {
      const range = req.headers.get("range");
      const res = await fetch(origin + path.slice(6), range ? { headers: { range } } : {});
      return new Response(res.body, { status: res.status, headers: res.headers });
    } else if (path.startsWith("/buffered/") && origin) {
      const res = await fetch(origin + path.slice(9));
      const body = await res.bytes();
      return new Response(body, {
        status: res.status,
        headers: [
          ["access-control-allow-origin", "*"],
          ["cache-control", res.headers.get("cache-control") ?? "no-cache"],
          ["content-type", res.headers.get("content-type") ?? "application/octet-stream"],
          ["x-cachely-cache", "MISS"],
          ["x-cache", "MISS"],
        ],
      });
    } else if (path.startsWith("/__same?path=") && req.method === "POST") {
      const p = decodeURIComponent(path.slice(13));
      const pairs: [string, string][] = await req.json();
      same.set(p, new Headers(pairs));
      const b = bodies.get(p);
      if (b) {
        const res = new Response(b.body, { headers: pairs.filter(([k]) => k !== "age") });
        void res.headers; // drops the native response the constructor pre-built
        templates.set(p, { res, age: pairs.find(([k]) => k === "age")?.[1] ?? null });
      }
      return new Response(null, { status: 204 });
    }
    return new Response("not found", { status: 404 });
  });
  console.log(JSON.stringify({ ready: true, port: server.addr.port }));
}
