/**
 * The prewarm's shared copies in KV (edge/prewarm.ts): the claimer leaves each refetched answer
 * for the other instances. An answer of at most INLINE_BYTES rides in its head record (one
 * write, one read: most API answers); a larger one is written as chunks first, then the head.
 */
import { type CachedObject, cachedObject, concatBytes } from "./cache/store.ts";
import type { Bytes } from "./cache/object.ts";
import { kvKeys } from "../lib/kv/keys.ts";

/** Inline in the head: with headers under HEADER_BYTES it stays below KV's 64 KiB value limit. */
const INLINE_BYTES = 48 * 1024;
const HEADER_BYTES = 8 * 1024;
/** Below KV's 64 KiB value limit. */
const CHUNK_BYTES = 60 * 1024;
/** A larger answer is refetched by the claimer only: the others miss once. */
export const MAX_SHARED_BYTES = 1024 * 1024;

/** The head of a shared copy: the object's fields; its body inline or in `chunks` chunks. */
export type CopyHead = {
  status: number;
  headers: [string, string][];
  storedAt: number;
  ttlMs: number;
  swrMs: number;
  sieMs: number;
  noCdn: boolean;
  chunks: number;
  bytes: number;
  body?: Bytes;
};

type Where = { tenantId: number; purgeAt: number; hash: string };

/** Leaves `obj` in KV for the other instances: the chunks first (if any), then the head. */
export async function share(kv: Deno.Kv, w: Where, obj: CachedObject, expireIn: number) {
  const body = obj.body;
  let headerBytes = 0;
  for (const [n, v] of obj.headers) headerBytes += n.length + v.length + 8;
  const inline = body.byteLength <= INLINE_BYTES && headerBytes <= HEADER_BYTES;
  const chunks = inline ? 0 : Math.ceil(body.byteLength / CHUNK_BYTES);
  await Promise.all(
    Array.from({ length: chunks }, (_, i) =>
      kv.set(
        kvKeys.prewarmChunk(w.tenantId, w.purgeAt, w.hash, i),
        body.slice(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES),
        { expireIn },
      )),
  );
  const head: CopyHead = {
    status: obj.status,
    headers: obj.headers,
    storedAt: obj.storedAt,
    ttlMs: obj.ttlMs,
    swrMs: obj.swrMs,
    sieMs: obj.sieMs,
    noCdn: obj.noCdn,
    chunks,
    bytes: body.byteLength,
    ...(inline ? { body: body.slice() } : {}), // a view would serialise its whole buffer
  };
  await kv.set(kvKeys.prewarmCopy(w.tenantId, w.purgeAt, w.hash), head, { expireIn });
}

/** The shared copy as an object of this instance, or null when a chunk is gone. */
export async function readCopy(
  kv: Deno.Kv,
  w: Where,
  head: CopyHead,
): Promise<CachedObject | null> {
  let body = head.body;
  if (body === undefined) {
    const parts: Uint8Array[] = [];
    for (let i = 0; i < head.chunks; i += 10) { // getMany reads 10 keys at most
      const keys = [];
      for (let k = i; k < Math.min(i + 10, head.chunks); k++) {
        keys.push(kvKeys.prewarmChunk(w.tenantId, w.purgeAt, w.hash, k));
      }
      for (const e of await kv.getMany<Uint8Array[]>(keys)) {
        if (!(e.value instanceof Uint8Array)) return null;
        parts.push(e.value);
      }
    }
    body = concatBytes(parts, head.bytes);
  }
  const obj = cachedObject(head.status, head.headers, body, head.storedAt, head.ttlMs, head.noCdn);
  obj.swrMs = head.swrMs;
  obj.sieMs = head.sieMs;
  return obj;
}
