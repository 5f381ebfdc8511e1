/**
 * Compression dictionaries for API JSON (RFC 9842). Every API answer tells the browser to keep
 * it as a dictionary for its path (`Use-As-Dictionary: match="/~api/<path>"`); the edge keeps
 * the previous version of each answer, and the next version gets a `dcz` copy: zstd with that
 * previous body as its dictionary. A version is recorded with its copies, on its first hit
 * (edge/cache/variants.ts), so one never hit is no dictionary. The delta goes behind RFC
 * 9842's 40-byte header (a zstd skippable frame naming the dictionary's SHA-256), so
 * `zstd -D previous -d` decodes it. A CMS list changes a little per publish: a one-field edit
 * of a 40 KB list is 74 bytes against 7.7 KB of gzip.
 *
 * Dictionaries are keyed by tenant, tenant origin and path with query (the cache key without
 * its version counter, which a publish bumps), so no tenant's bytes ever serve as another's
 * dictionary, and a request's Available-Dictionary is only compared with the one dictionary
 * the answer's copy was made against. Bounded in bytes (oldest path out first).
 */

/** What one API path's answers are compared with. */
export type DictionaryPath = {
  /** Tenant, tenant origin and path with query: whose previous version is the dictionary. */
  id: string;
  /** The path a browser may use the answer as a dictionary for (Use-As-Dictionary match). */
  match: string;
};

/**
 * The dictionary path of an API cache key (`a|tenant|version|origin|path?query`, edge/cache/
 * keys.ts); null for any other key (assets, site pages, transformed answers).
 */
export function dictionaryPath(key: string): DictionaryPath | null {
  if (!key.startsWith("a|")) return null;
  const parts = key.split("|");
  // a | tenant | version | origin | path?query - a transformed answer has a `t=` part more
  if (parts.length !== 5) return null;
  const [, tenant, , origin, pathQuery] = parts;
  const q = pathQuery.indexOf("?");
  const path = q < 0 ? pathQuery : pathQuery.slice(0, q);
  // A match pattern is a URLPattern (RFC 9842 §2.1.1): its special characters stay literal.
  const match = `/~api${path}`.replace(/[\\*:?+(){}]/g, (c) => `\\${c}`);
  return { id: `${tenant}|${origin}|${pathQuery}`, match };
}

/** A kept body and its SHA-256 (base64, as Available-Dictionary names it). */
export type Dictionary = { hash: string; bytes: Uint8Array<ArrayBuffer> };

/** The `Use-As-Dictionary` value for a path (RFC 9842 §2.1). */
export function useAsDictionary(p: DictionaryPath): string {
  return `match="${p.match.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** Bytes of dictionaries kept at most (the latest and previous body of each API path). */
const MAX_BYTES = 32 * 1024 * 1024;

type Versions = { latest: Dictionary; previous: Dictionary | null };

/** The latest and previous body of each API path, bounded in bytes. */
export class Dictionaries {
  private paths = new Map<string, Versions>();
  private held = 0;

  constructor(readonly maxBytes = MAX_BYTES) {}

  /** Bytes held. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Records `body` as the latest version of `path` and returns the dictionary to make its
   * delta against: the version before it (an unchanged refetch keeps the one it had).
   */
  record(path: DictionaryPath, body: Dictionary): Dictionary | null {
    const v = this.paths.get(path.id);
    if (v !== undefined && v.latest.hash === body.hash) return v.previous;
    if (v !== undefined) this.drop(path.id, v);
    const next: Versions = { latest: body, previous: v?.latest ?? null };
    const size = body.bytes.byteLength + (next.previous?.bytes.byteLength ?? 0);
    if (size > this.maxBytes) return next.previous;
    for (const [id, old] of this.paths) {
      if (this.held + size <= this.maxBytes) break;
      this.drop(id, old);
    }
    this.paths.set(path.id, next);
    this.held += size;
    return next.previous;
  }

  private drop(id: string, v: Versions): void {
    this.paths.delete(id);
    this.held -= v.latest.bytes.byteLength + (v.previous?.bytes.byteLength ?? 0);
  }
}

/** The process's dictionaries. */
export const dictionaries = new Dictionaries();

/** SHA-256 of `bytes` in base64. */
export async function sha256Base64(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let s = "";
  for (const b of d) s += String.fromCharCode(b);
  return btoa(s);
}

/** zstd at a level that takes ~3 ms for 40 KB in WASM (it runs on the event loop). */
const DCZ_LEVEL = 9;

type Zstd = typeof import("@bokuweb/zstd-wasm");
/** Loaded on the first delta: WASM zstd, since node:zlib has no zstd on Deno 2.5. */
let zstd: Promise<{ z: Zstd; cctx: number }> | undefined;

async function loadZstd(): Promise<{ z: Zstd; cctx: number }> {
  const z = await import("@bokuweb/zstd-wasm");
  await z.init();
  return { z, cctx: z.createCCtx() };
}

/**
 * The `dcz` body of `body` against `dict` (RFC 9842 §4.2): magic 5E 2A 4D 18, length 32, the
 * dictionary's SHA-256, then the zstd frame.
 */
export async function dczOf(
  body: Uint8Array<ArrayBuffer>,
  dict: Dictionary,
): Promise<Uint8Array<ArrayBuffer>> {
  const { z, cctx } = await (zstd ??= loadZstd());
  const frame = z.compressUsingDict(cctx, body, dict.bytes, DCZ_LEVEL);
  const hash = Uint8Array.from(atob(dict.hash), (c) => c.charCodeAt(0));
  const out = new Uint8Array(40 + frame.byteLength);
  out.set([0x5e, 0x2a, 0x4d, 0x18, 0x20, 0, 0, 0]);
  out.set(hash, 8);
  out.set(frame, 40);
  return out;
}
