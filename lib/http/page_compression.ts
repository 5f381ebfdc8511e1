/**
 * The management app's answers in the coding the browser asks for (lib/http/encoding.ts):
 * pages (HTML, made per request and never stored) compressed as they leave, with brotli at a
 * quality cheap enough per request; the island bundles read precompressed from beside them
 * (`deno task build` writes `.br` and `.gz` copies, lib/http/precompress.ts). Every decision is
 * the program's: an answer left identity carries no-transform on a runtime that would
 * otherwise compress it on its own (Deno 2.5).
 */
import type { MiddlewareHandler } from "hono";
import {
  type Coding,
  compressibleType,
  pickCoding,
  preferenceOf,
  RUNTIME_COMPRESSES,
  withNoTransform,
} from "./encoding.ts";

/** Smaller bodies go identity: compressing them saves less than a packet. */
const MIN_BYTES = 512;
/** Per request, so far below the stored copies' quality: ~0.3 ms for a 10 KB page. */
const PAGE_BROTLI_QUALITY = 5;

/** Lazily loaded: the first node: module costs start-up time (edge/http1/decode.ts). */
let zlib: Promise<typeof import("node:zlib")> | undefined;

async function compressBody(coding: "br" | "gzip", body: Uint8Array): Promise<Uint8Array> {
  const z = await (zlib ??= import("node:zlib"));
  return await new Promise<Uint8Array>((ok, no) => {
    const done = (e: Error | null, out: Uint8Array) => e ? no(e) : ok(out);
    if (coding === "br") {
      z.brotliCompress(body, {
        params: { [z.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY },
      }, done);
    } else z.gzip(body, { level: 6 }, done);
  });
}

/** Adds Accept-Encoding to a response's Vary. */
function addVary(headers: Headers): void {
  const own = headers.get("vary");
  if (own === null || own.trim() === "") headers.set("vary", "accept-encoding");
  else if (!/\baccept-encoding\b/i.test(own) && own.trim() !== "*") {
    headers.set("vary", `${own}, accept-encoding`);
  }
}

/**
 * A precompressed sibling of a static file, by coding: `islands.js` -> `islands.js.br`,
 * `islands.js.gz`. Null when the build wrote none.
 */
export async function precompressed(
  file: URL,
  accept: string | null,
): Promise<{ coding: Coding; body: Uint8Array } | null> {
  const p = preferenceOf(accept);
  for (const coding of p.order) {
    try {
      const body = await Deno.readFile(new URL(`${file.href}.${coding === "br" ? "br" : "gz"}`));
      return { coding, body };
    } catch {
      // no copy in this coding: try the next one the browser accepts
    }
  }
  return null;
}

/** The response as the program decided it: compressed when worth it, else identity as is. */
export const compressAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  const type = res.headers.get("content-type") ?? "";
  if (
    res.body === null || res.status === 206 || res.headers.has("content-encoding") ||
    !compressibleType(type) || /^\s*text\/event-stream/i.test(type) ||
    /\bno-transform\b/i.test(res.headers.get("cache-control") ?? "")
  ) return;
  const body = new Uint8Array(await res.arrayBuffer());
  const coding = body.byteLength < MIN_BYTES
    ? "identity"
    : pickCoding(preferenceOf(c.req.header("accept-encoding") ?? null), () => true);
  const headers = new Headers(res.headers);
  if (body.byteLength >= MIN_BYTES) addVary(headers);
  let out: Uint8Array = body;
  if (coding === "identity") {
    if (RUNTIME_COMPRESSES) {
      headers.set("cache-control", withNoTransform(headers.get("cache-control")));
    }
  } else {
    out = await compressBody(coding, body);
    headers.set("content-encoding", coding);
  }
  headers.delete("content-length");
  c.res = new Response(out as Uint8Array<ArrayBuffer>, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
};
