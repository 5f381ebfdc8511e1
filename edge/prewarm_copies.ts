/**
 * The prewarm's shared copies in KV (edge/prewarm.ts): the claimer leaves each refetched answer
 * for the other instances. An answer of at most INLINE_BYTES rides in its head record (one
 * write, one read: most API answers); a larger one is written as chunks first, then the head.
 */
import { type CachedObject, cachedObject, concatBytes } from "./cache/store.ts";
import type { Bytes } from "./cache/object.ts";
import { kvKeys } from "../lib/kv/keys.ts";
import { kvCommit } from "../lib/kv/retry.ts";

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

/** The head of `obj` (its body inline when small enough) and its chunks' count. */
function headOf(obj: CachedObject): CopyHead {
  const body = obj.body;
  let headerBytes = 0;
  for (const [n, v] of obj.headers) headerBytes += n.length + v.length + 8;
  const inline = body.byteLength <= INLINE_BYTES && headerBytes <= HEADER_BYTES;
  return {
    status: obj.status,
    headers: obj.headers,
    storedAt: obj.storedAt,
    ttlMs: obj.ttlMs,
    swrMs: obj.swrMs,
    sieMs: obj.sieMs,
    noCdn: obj.noCdn,
    chunks: inline ? 0 : Math.ceil(body.byteLength / CHUNK_BYTES),
    bytes: body.byteLength,
    ...(inline ? { body: body.slice() } : {}), // a view would serialise its whole buffer
  };
}

/** Heads per atomic operation at most, and their bytes (KV takes 800 KiB per operation). */
const GROUP_HEADS = 100;
const GROUP_BYTES = 640 * 1024;

type Pending = { w: Where; head: CopyHead; size: number; done(e?: unknown): void };

/**
 * Leaves copies in KV for the other instances, heads in group commits: while one commit
 * runs, the heads shared meanwhile queue and go together in the next one. A claimer
 * refetching a publish's answers at once would otherwise queue one commit per answer on the
 * shared KV file, each waiting for the others' locks. A large answer's chunks are written
 * first, one set each, then its head joins the queue.
 */
export class CopyWriter {
  #queue: Pending[] = [];
  #running = false;

  constructor(private kv: Deno.Kv, private expireIn: number) {}

  async share(w: Where, obj: CachedObject): Promise<void> {
    const head = headOf(obj);
    const body = obj.body;
    await Promise.all(
      Array.from({ length: head.chunks }, (_, i) =>
        this.kv.set(
          kvKeys.prewarmChunk(w.tenantId, w.purgeAt, w.hash, i),
          body.slice(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES),
          { expireIn: this.expireIn },
        )),
    );
    const size = (head.body?.byteLength ?? 0) + HEADER_BYTES;
    await new Promise<void>((resolve, reject) => {
      this.#queue.push({ w, head, size, done: (e) => e === undefined ? resolve() : reject(e) });
      this.#flush();
    });
  }

  async #flush(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    while (this.#queue.length > 0) {
      let n = 0;
      let bytes = 0;
      while (n < this.#queue.length && n < GROUP_HEADS) {
        bytes += this.#queue[n].size;
        if (n > 0 && bytes > GROUP_BYTES) break;
        n++;
      }
      const group = this.#queue.splice(0, n);
      try {
        await kvCommit(() => {
          const op = this.kv.atomic();
          for (const { w, head } of group) {
            op.set(kvKeys.prewarmCopy(w.tenantId, w.purgeAt, w.hash), head, {
              expireIn: this.expireIn,
            });
          }
          return op;
        });
        for (const p of group) p.done();
      } catch (e) {
        for (const p of group) p.done(e ?? new Error("copy not shared"));
      }
    }
    this.#running = false;
  }
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
