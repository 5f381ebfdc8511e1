/**
 * A purge-by-tag stand-in for an nginx CDN (nginx-light has no purge module): the
 * purge hook's endpoint (CDN_PURGE_URL) that deletes every file in nginx's
 * proxy_cache directory whose stored response headers carry one of the POSTed
 * `Cache-Tag` values, which is what a CDN's purge by tag does. nginx then finds the
 * entry's file gone and fetches it again (a MISS). Entries without a matching tag stay.
 */
import { serveOnLoopback } from "../harness.ts";

/** The header block of an nginx cache file starts after its binary header; 16 KB is ample. */
const HEAD_BYTES = 16 * 1024;

/** Tags of one cached response: its `Cache-Tag` header, lower-cased (CDNs compare so). */
async function tagsOf(file: string): Promise<string[]> {
  const f = await Deno.open(file);
  try {
    const buf = new Uint8Array(HEAD_BYTES);
    const n = (await f.read(buf)) ?? 0;
    const text = new TextDecoder("latin1").decode(buf.subarray(0, n));
    const end = text.indexOf("\r\n\r\n");
    const m = /\r\ncache-tag:[ \t]*([^\r\n]*)/i.exec(end === -1 ? text : text.slice(0, end));
    return m ? m[1].split(",").map((t) => t.trim().toLowerCase()).filter(Boolean) : [];
  } finally {
    f.close();
  }
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) yield* files(p);
    else if (e.isFile) yield p;
  }
}

/** Deletes the cached responses tagged with any of `tags`; returns how many. */
export async function purgeNginxTags(cacheDir: string, tags: string[]): Promise<number> {
  const wanted = new Set(tags.map((t) => t.toLowerCase()));
  let removed = 0;
  for await (const file of files(cacheDir)) {
    if ((await tagsOf(file)).some((t) => wanted.has(t))) {
      await Deno.remove(file);
      removed++;
    }
  }
  return removed;
}

/**
 * The purge endpoint: `{"tags": [...]}` purges nginx's cache at `cacheDir()` (read per
 * request: nginx may start after the endpoint) and records each request.
 */
export function startNginxPurger(cacheDir: () => string | null) {
  const seen: { tags: string[]; removed: number }[] = [];
  const server = serveOnLoopback(async (req) => {
    const { tags } = await req.json() as { tags: string[] };
    const dir = cacheDir();
    const removed = dir ? await purgeNginxTags(dir, tags) : 0;
    seen.push({ tags, removed });
    return Response.json({ removed });
  });
  return { url: server.url, seen, close: () => server.close() };
}
