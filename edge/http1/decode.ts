/**
 * Content codings the client asks for (Accept-Encoding) and undoes, as fetch does: the
 * edge stores and rewrites decoded bodies. A buffered body is decoded in one call with
 * its output bounded (a small body that inflates past the bound streams instead, so a
 * decompression bomb never fills memory); a streamed one through DecompressionStream.
 */
// node:zlib is imported on the first coded body, not at start: the first node: module
// starts Deno's Node compatibility layer, about 25 ms of a cold start (bench/cold_start.ts).
type Zlib = typeof import("node:zlib");
let zlib: Promise<Zlib> | undefined;

/**
 * br only where DecompressionStream takes "brotli" (Deno 2.9; not 2.5, where a streamed br body
 * could not be decoded: a 502, and node's zlib brotli stream panics the process when cancelled).
 */
export const ACCEPT_ENCODING = brotliStreams() ? "gzip, deflate, br" : "gzip, deflate";

function brotliStreams(): boolean {
  try {
    new DecompressionStream("brotli" as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

export type Coding = "gzip" | "deflate" | "br";

/**
 * The coding of a Content-Encoding value: null for none, "unsupported" for one the
 * client never asked for (the response is refused: its body could not be read).
 */
export function codingOf(value: string | undefined): Coding | null | "unsupported" {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase();
  if (v === "" || v === "identity") return null;
  if (v === "gzip" || v === "x-gzip") return "gzip";
  if (v === "deflate") return "deflate";
  if (v === "br") return "br";
  return "unsupported";
}

/** Thrown when a decoded body would exceed its bound. */
export class TooLarge extends Error {}

/** The decoded bytes, in a buffer of exactly their length. Throws TooLarge or a zlib error. */
export async function decodeWhole(
  coding: Coding,
  bytes: Uint8Array,
  max: number,
): Promise<Uint8Array> {
  const opts = { maxOutputLength: Math.max(1, max) };
  const z = await (zlib ??= import("node:zlib"));
  let out: Uint8Array;
  try {
    out = coding === "gzip"
      ? z.gunzipSync(bytes, opts)
      : coding === "deflate"
      ? z.inflateSync(bytes, opts)
      : z.brotliDecompressSync(bytes, opts);
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new TooLarge();
    throw e;
  }
  // zlib may hand back a view into a shared pool: a cached body must own its bytes
  return new Uint8Array(out);
}

export function decodeStream(
  coding: Coding,
  body: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  const format = coding === "br" ? "brotli" : coding;
  const pair = new DecompressionStream(format as CompressionFormat);
  return body.pipeThrough(
    pair as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
}
