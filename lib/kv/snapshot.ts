/**
 * Tenant edge snapshots in Deno KV. A snapshot is everything the edge needs to
 * answer for a tenant without Postgres. Values are capped at 64 KiB, so the JSON
 * is split into chunks under a content hash and the head written last, in one
 * atomic operation: readers see the old or the new snapshot, never a mix.
 * Every write goes through kvRetry (transient errors are retried).
 */
import type { AuthMode, ProviderConfig, ProviderKind } from "../providers/mod.ts";
import type { AiSnapshot } from "../ai/snapshot_types.ts";
import type { ExperimentSnapshot } from "../experiments/snapshot_types.ts";
import { kvKeys } from "./keys.ts";
import { sha256Hex } from "../crypto/mod.ts";
import { kvCommit, kvRetry } from "./retry.ts";
import { kvCompareAndSet, LOST_RACE } from "./compare_and_set.ts";
import { announceChange } from "./changes.ts";

export type EdgeSnapshot = {
  v: 1;
  builtAt: string;
  tenantId: number;
  slug: string;
  cms: ProviderKind;
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
    /** transformApiUrls: provider URLs in API bodies rewritten (absent -> on). */
    rewriteUrls?: boolean;
  };
  website: { origin: string | null; siteProxy: boolean };
  /** Provider identifiers; absent in snapshots built before them. */
  provider?: ProviderConfig;
  /** Asset delivery settings; absent -> defaults (edge/assets.ts). */
  assets?: EdgeAssetSettings;
  versions: { api: number; assets: number; html: number };
  /** Active (verified) custom domains, first verified first: the first is the primary. */
  domains: string[];
  /** The billing account whose quota snapshot (lib/kv/quota.ts) governs this tenant. */
  ownerId?: string | null;
  ai: AiSnapshot;
  experiments: ExperimentSnapshot[];
  /** CDN offload on (docs/decisions.md "CDN offload"); absent in snapshots built before it. */
  cdnOffload?: boolean;
  /**
   * Purges by URL, prefix or tag, oldest first; absent in snapshots built before.
   * An object stored before `at` (ms) that one matches is not served (edge/cache/purges.ts).
   */
  purges?: PurgeRecord[];
  /** HTTP caching settings (docs/decisions.md "HTTP caching"); absent -> defaults (edge/caching.ts). */
  caching?: EdgeCachingSettings;
  /** The database installation it was built from (lib/edge_config/reconcile.ts). */
  installation?: string;
  /** Editors' previews (docs/providers.md "Previews"); absent -> no preview link verifies. */
  preview?: EdgePreviewSettings;
};

/** What the edge needs to verify a preview link and answer it with the preview credential. */
export type EdgePreviewSettings = {
  /** AES-GCM sealed HMAC secret of the tenant's preview links; null before the first link. */
  secretEnc: string | null;
  /** AES-GCM sealed preview token (Contentful Preview API, Storyblok preview, ...); null -> the API token. */
  tokenEnc: string | null;
  /** Preview API origin (`https://preview.contentful.com`); null -> the API origin. */
  origin: string | null;
};

/**
 * One purge: tenant-host paths (with `?query` to purge one variant), prefixes, tags; for an
 * entity purge, what its webhook announced (edge/publish_revisions.ts).
 */
export type PurgeRecord = {
  at: number;
  urls: string[];
  prefixes: string[];
  tags: string[];
  /** A merged record (lib/cache/purge_compact.ts): each tag's own time, parallel to `tags`. */
  tagTimes?: number[];
  announced?: Announced;
  /** A merged record: the merged records' announcements, each at its own purge time. */
  announcements?: TimedAnnouncement[];
};

/** A webhook's announcement: the entities, their types and revisions, and what happened. */
export type Announced = {
  action: "publish" | "unpublish" | "delete" | "change";
  ids: string[];
  /** null: the payload named no content type. */
  types: string[] | null;
  revisions: Record<string, string | number>;
};

/** An announcement with the time of the purge that made it. */
export type TimedAnnouncement = Announced & { at: number };

/**
 * How long after a publish the edge awaits its announced revision (edge/publish_revisions.ts),
 * so also how long a merged record keeps an announcement (lib/cache/purge_compact.ts).
 */
export const PUBLISH_WAIT_MS = 60_000;

/** A record's announcements, oldest first: its own, or a merged record's. */
export function announcementsOf(p: PurgeRecord): TimedAnnouncement[] {
  if (p.announcements) return p.announcements;
  return p.announced ? [{ ...p.announced, at: p.at }] : [];
}

/** How the edge caches a tenant's answers. */
export type EdgeCachingSettings = {
  /** "fixed": the tenant's TTLs; "origin": assets and site pages follow the origin's headers. */
  cacheMode: "fixed" | "origin";
  /** Stale-while-revalidate window in seconds (0: off). */
  staleWhileRevalidate: number;
  /** Store answers that set a cookie (the cookie is still dropped). */
  ignoreSetCookie: boolean;
  /**
   * Origin mode: the stale window applies where the origin did not allow stale answers
   * (absent in older snapshots: off).
   */
  staleWhenOriginSilent?: boolean;
  /**
   * Locales website pages are negotiated to (lib/base/locales.ts): the visitor's
   * Accept-Language becomes one of them before it keys or reaches the origin; absent or [] ->
   * passed on as sent.
   */
  locales?: string[];
};

/** Asset delivery settings of a tenant, as the edge reads them. */
export type EdgeAssetSettings = {
  /** Asset cache time-to-live in seconds. */
  ttl: number;
  /** Allowed content types (MIME types, families, EVERY_TYPE); null -> the safe list. */
  allowedTypes: string[] | null;
  blockBots: boolean;
  allowImageSearchBots: boolean;
  /**
   * File classes or `.extensions` whose query is stripped where the provider keeps it
   * (lib/providers/query_types.ts); absent in snapshots built before it -> none.
   */
  stripQueryTypes?: string[];
  /** `https://{websiteDomain}/`, sent as Referer on asset fetches; null when none. */
  referer: string | null;
};

/**
 * `gen` is the Postgres generation the snapshot was built at (lib/edge_config/): KV
 * refuses an older one. `domains` are the custom domains routed to it, so the next
 * write (or a delete) knows which host routes to drop. `deleted` is a tombstone: a
 * deleted tenant keeps its generation, so a late older build cannot bring it back.
 */
export type SnapshotHead = {
  hash: string;
  chunks: number;
  builtAt: string;
  gen?: number;
  domains?: string[];
  deleted?: boolean;
  /** The database installation the snapshot came from; absent in older snapshots. */
  installation?: string;
};
type Head = SnapshotHead;
const CHUNK_CHARS = 60_000; // 64 KiB KV value limit with headroom for UTF-8 expansion kept below

/** The generation KV holds for a tenant (a tombstone counts), or 0 when it holds none. */
export async function storedGeneration(kv: Deno.Kv, slug: string): Promise<number> {
  return (await kvRetry(() => kv.get<Head>(kvKeys.snapshotHead(slug)))).value?.gen ?? 0;
}

/**
 * The generation KV holds for each slug (a tombstone counts), null where it holds no
 * head at all (KV lost or restored); read 10 keys per call, KV's getMany limit.
 */
export async function storedGenerations(
  kv: Deno.Kv,
  slugs: string[],
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  for (let i = 0; i < slugs.length; i += 10) {
    const page = slugs.slice(i, i + 10);
    const heads = await kvRetry(() => kv.getMany<Head[]>(page.map((s) => kvKeys.snapshotHead(s))));
    page.forEach((slug, j) => out.set(slug, heads[j].value ? heads[j].value!.gen ?? 0 : null));
  }
  return out;
}

/**
 * Writes a snapshot and its custom-domain host routes in one atomic operation,
 * unless KV already holds a later generation: concurrent projections (in one
 * process or across instances) may finish out of order, and the older one must not
 * win. Returns false when it stood back. Without a generation (tools, tests) the
 * write is unconditional and keeps the current generation.
 */
export async function writeSnapshot(
  kv: Deno.Kv,
  snap: EdgeSnapshot,
  generation?: number,
): Promise<boolean> {
  const json = JSON.stringify(snap);
  const hash = (await sha256Hex(json)).slice(0, 16);
  const parts = splitByBytes(json, CHUNK_CHARS);
  return await kvCompareAndSet(async () => {
    const prev = await kv.get<Head>(kvKeys.snapshotHead(snap.slug));
    const current = prev.value?.gen ?? 0;
    if (generation !== undefined && current > generation) return false;
    const previousDomains = await domainsOf(kv, snap.slug, prev.value);
    const op = kv.atomic().check(prev);
    parts.forEach((p, i) => op.set(kvKeys.snapshotChunk(snap.slug, hash, i), p));
    op.set(
      kvKeys.snapshotHead(snap.slug),
      {
        hash,
        chunks: parts.length,
        builtAt: snap.builtAt,
        gen: generation ?? current,
        domains: snap.domains,
        ...(snap.installation ? { installation: snap.installation } : {}),
      } satisfies Head,
    );
    for (const host of snap.domains) op.set(kvKeys.hostRoute(host), snap.slug);
    for (const host of previousDomains) {
      if (!snap.domains.includes(host)) op.delete(kvKeys.hostRoute(host));
    }
    announceChange(op, { kind: "tenant", id: snap.slug });
    if (generation !== undefined) raiseHighWater(op, generation);
    if (!(await op.commit()).ok) return LOST_RACE; // another writer got in between: look again
    if (prev.value && !prev.value.deleted && prev.value.hash !== hash) {
      await deleteChunks(kv, snap.slug, prev.value);
    }
    return true;
  }, { attempts: HEAD_WRITE_ATTEMPTS, exhausted: headKeptConflicting });
}

/** Head writes lost to other writers before one gives up (each loser read a newer head). */
const HEAD_WRITE_ATTEMPTS = 100;

const headKeptConflicting = (): never => {
  throw new Error("snapshot head write kept conflicting");
};

/** KV's high-water mark follows every generation written (lib/edge_config/reconcile.ts). */
function raiseHighWater(op: Deno.AtomicOperation, generation: number): void {
  op.max(kvKeys.highWater(), BigInt(Math.max(0, Math.trunc(generation))));
}

/** Every snapshot head KV holds, tombstones included, by slug. */
export async function listHeads(kv: Deno.Kv): Promise<Map<string, SnapshotHead>> {
  const out = new Map<string, SnapshotHead>();
  for await (const e of kv.list<SnapshotHead>({ prefix: kvKeys.snapshotHeads() })) {
    out.set(e.key[2] as string, e.value);
  }
  return out;
}

/** Domains routed to the current head; heads written before they carried the list: from the body. */
async function domainsOf(kv: Deno.Kv, slug: string, head: Head | null): Promise<string[]> {
  if (!head) return [];
  if (head.domains) return head.domains;
  return (await readSnapshot(kv, slug).catch(() => null))?.domains ?? [];
}

export async function readSnapshot(kv: Deno.Kv, slug: string): Promise<EdgeSnapshot | null> {
  const head = await kv.get<Head>(kvKeys.snapshotHead(slug));
  if (!head.value || head.value.deleted) return null;
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

/**
 * Removes a tenant from the edge: a tombstone head at `generation` (so an older
 * build finishing later stands back), its host routes and its chunks.
 */
export async function deleteSnapshot(
  kv: Deno.Kv,
  slug: string,
  generation?: number,
): Promise<boolean> {
  return await kvCompareAndSet(async () => {
    const prev = await kv.get<Head>(kvKeys.snapshotHead(slug));
    const current = prev.value?.gen ?? 0;
    if (generation !== undefined && current > generation) return false;
    const op = kv.atomic().check(prev);
    op.set(
      kvKeys.snapshotHead(slug),
      {
        hash: "",
        chunks: 0,
        builtAt: new Date().toISOString(),
        gen: generation ?? current,
        domains: [],
        deleted: true,
      } satisfies Head,
    );
    for (const host of await domainsOf(kv, slug, prev.value)) op.delete(kvKeys.hostRoute(host));
    announceChange(op, { kind: "tenant", id: slug });
    if (generation !== undefined) raiseHighWater(op, generation);
    if (!(await op.commit()).ok) return LOST_RACE;
    if (prev.value && !prev.value.deleted) await deleteChunks(kv, slug, prev.value);
    return true;
  }, { attempts: HEAD_WRITE_ATTEMPTS, exhausted: headKeptConflicting });
}

async function deleteChunks(kv: Deno.Kv, slug: string, head: Head): Promise<void> {
  await kvCommit(() => {
    const op = kv.atomic();
    for (let i = 0; i < head.chunks; i++) op.delete(kvKeys.snapshotChunk(slug, head.hash, i));
    return op;
  });
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

/** Sets or clears one host route by hand (tools, tests); projections write them with the head. */
export async function writeHostRoute(kv: Deno.Kv, hostname: string, slug: string | null) {
  if (slug === null) await kvRetry(() => kv.delete(kvKeys.hostRoute(hostname)));
  else await kvRetry(() => kv.set(kvKeys.hostRoute(hostname), slug));
}

export async function readHostRoute(kv: Deno.Kv, hostname: string): Promise<string | null> {
  return (await kv.get<string>(kvKeys.hostRoute(hostname))).value;
}
