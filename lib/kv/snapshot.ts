/**
 * Tenant edge snapshots in Deno KV. A snapshot is everything the edge needs to
 * answer for a tenant without Postgres. Values are capped at 64 KiB, so the JSON
 * is split into chunks under a content hash and the head written last, in one
 * atomic operation: readers see the old or the new snapshot, never a mix.
 */
import type { AuthMode, CmsKind, ProviderConfig } from "../providers/mod.ts";
import type { AiSnapshot } from "../ai/snapshot_types.ts";
import type { ExperimentSnapshot } from "../experiments/snapshot_types.ts";
import { kvKeys } from "./keys.ts";
import { sha256Hex } from "../crypto/mod.ts";

export type EdgeSnapshot = {
  v: 1;
  builtAt: string;
  tenantId: number;
  slug: string;
  cms: CmsKind;
  cloudName: string | null;
  /** API cache time-to-live in seconds. */
  cacheTtl: number;
  api: {
    origin: string | null;
    authMode: AuthMode;
    /** Header or query parameter name for the `header` and `query` modes. */
    authParam: string | null;
    /** AES-GCM sealed token; decrypted in memory at the edge only. */
    tokenEnc: string | null;
    /** Query parameter that bypasses the cache for draft content. */
    previewParam: string;
  };
  website: { origin: string | null; siteProxy: boolean };
  /** Provider identifiers (issue 9); absent in snapshots built before them. */
  provider?: ProviderConfig;
  /** Asset delivery settings (issue 9); absent → defaults (edge/assets.ts). */
  assets?: EdgeAssetSettings;
  versions: { api: number; assets: number; html: number };
  /** Active custom domains. */
  domains: string[];
  /** The billing account whose quota snapshot (lib/kv/quota.ts) governs this tenant. */
  ownerId?: string | null;
  ai: AiSnapshot;
  experiments: ExperimentSnapshot[];
};

/** Asset delivery settings of a tenant, as the edge reads them. */
export type EdgeAssetSettings = {
  /** Asset cache time-to-live in seconds. */
  ttl: number;
  /** Allowed content types (MIME types or families); null → the default list. */
  allowedTypes: string[] | null;
  blockBots: boolean;
  allowImageSearchBots: boolean;
  /** `https://{websiteDomain}/`, sent as Referer on asset fetches; null when none. */
  referer: string | null;
};

type Head = { hash: string; chunks: number; builtAt: string; generation?: number };
const CHUNK_CHARS = 60_000; // 64 KiB KV value limit with headroom for UTF-8 expansion kept below

/**
 * Takes the next build generation for a tenant. Call it before reading the state a
 * snapshot is built from: a build with a higher generation read newer state.
 */
export async function nextSnapshotGeneration(kv: Deno.Kv, slug: string): Promise<number> {
  const key = kvKeys.snapshotGeneration(slug);
  for (;;) {
    const cur = await kv.get<number>(key);
    const next = (cur.value ?? 0) + 1;
    if ((await kv.atomic().check(cur).set(key, next).commit()).ok) return next;
  }
}

/**
 * Writes a snapshot unless a build of a later generation already did: concurrent
 * syncs (in one process or across instances) may finish out of order, and the
 * older one must not win. Returns false when it stood back. Without a generation
 * (tools, tests) the write is unconditional and keeps the current generation.
 */
export async function writeSnapshot(
  kv: Deno.Kv,
  snap: EdgeSnapshot,
  generation?: number,
): Promise<boolean> {
  const json = JSON.stringify(snap);
  const hash = (await sha256Hex(json)).slice(0, 16);
  const parts = splitByBytes(json, CHUNK_CHARS);
  for (;;) {
    const prev = await kv.get<Head>(kvKeys.snapshotHead(snap.slug));
    const current = prev.value?.generation ?? 0;
    if (generation !== undefined && current > generation) return false;
    const op = kv.atomic().check(prev);
    parts.forEach((p, i) => op.set(kvKeys.snapshotChunk(snap.slug, hash, i), p));
    op.set(kvKeys.snapshotHead(snap.slug), {
      hash,
      chunks: parts.length,
      builtAt: snap.builtAt,
      generation: generation ?? current,
    });
    if (!(await op.commit()).ok) continue; // another writer got in between: look again
    if (prev.value && prev.value.hash !== hash) await deleteChunks(kv, snap.slug, prev.value);
    return true;
  }
}

export async function readSnapshot(kv: Deno.Kv, slug: string): Promise<EdgeSnapshot | null> {
  const head = await kv.get<Head>(kvKeys.snapshotHead(slug));
  if (!head.value) return null;
  const { hash, chunks } = head.value;
  const keys = Array.from({ length: chunks }, (_, i) => kvKeys.snapshotChunk(slug, hash, i));
  const parts: string[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    const got = await kv.getMany<string[]>(keys.slice(i, i + 10));
    for (const g of got) {
      if (g.value === null) return null; // raced with a rewrite; caller retries on next request
      parts.push(g.value);
    }
  }
  return JSON.parse(parts.join("")) as EdgeSnapshot;
}

export async function deleteSnapshot(kv: Deno.Kv, slug: string): Promise<void> {
  const head = await kv.get<Head>(kvKeys.snapshotHead(slug));
  await kv.delete(kvKeys.snapshotHead(slug));
  if (head.value) await deleteChunks(kv, slug, head.value);
}

async function deleteChunks(kv: Deno.Kv, slug: string, head: Head): Promise<void> {
  const op = kv.atomic();
  for (let i = 0; i < head.chunks; i++) op.delete(kvKeys.snapshotChunk(slug, head.hash, i));
  await op.commit();
}

/** Splits a string into pieces of at most maxBytes UTF-8 bytes, never inside a code point. */
function splitByBytes(s: string, maxBytes: number): string[] {
  const out: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 4 : 3;
    if (bytes + size > maxBytes) {
      out.push(s.slice(start, i));
      start = i;
      bytes = 0;
    }
    if (size === 4) i++; // surrogate pair: keep both halves together
    bytes += size;
  }
  out.push(s.slice(start));
  return out;
}

export async function writeHostRoute(kv: Deno.Kv, hostname: string, slug: string | null) {
  if (slug === null) await kv.delete(kvKeys.hostRoute(hostname));
  else await kv.set(kvKeys.hostRoute(hostname), slug);
}

export async function readHostRoute(kv: Deno.Kv, hostname: string): Promise<string | null> {
  return (await kv.get<string>(kvKeys.hostRoute(hostname))).value;
}
