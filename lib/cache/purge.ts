/**
 * Purge by URL, prefix or tag (docs/decisions.md "Purge by URL, prefix or tag").
 * A purge is a record in cache_purges written with the tenant marked changed, so it reaches
 * every instance with the tenant's snapshot (within the snapshot freshness bound): the edge
 * then treats an object stored before the purge that it matches as a miss, and drops it from
 * both cache tiers (edge/cache/purges.ts). The CDN hook gets the tags in the tenant's
 * namespace (and, for URLs and prefixes, which a tag-purging CDN cannot name, the tenant's
 * tag). Tags of other tenants and wildcards are refused; PURGES_PER_MINUTE per tenant.
 */
import { count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Services } from "../services.ts";
import { cachePurges, domains, tenants } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { badRequest, tooManyRequests } from "../errors.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { str } from "../base/text.ts";
import { normaliseQuery } from "./query.ts";
import { purgeCdnTags } from "../cdn/purge.ts";
import { MAX_TAG_LENGTH, originTag, ownTag, tenantTag } from "../cdn/tags.ts";
import { MAX_PURGE_BYTES, MAX_PURGE_RECORDS } from "./purge_records.ts";
import type { Announced } from "../kv/snapshot.ts";
import { compactTagPurges } from "./purge_compact.ts";

/** Purges a tenant may make per minute (all its members together). */
export const PURGES_PER_MINUTE = 30;

/** Entries one purge may name, over its three lists together. */
export const MAX_PURGE_ENTRIES = 1000;

const entry = str().min(1, "must not be empty").max(2048, "must be at most 2048 characters");
const list = entry.array().max(MAX_PURGE_ENTRIES, `must have at most ${MAX_PURGE_ENTRIES} entries`)
  .optional();
export const purgeBodySchema = z.strictObject({
  urls: list.describe("Tenant-host URLs or paths; a query purges that variant only"),
  prefixes: list.describe("Path prefixes on the tenant host, e.g. /~api/entries/"),
  tags: list.describe(
    "Cache-Tag values the origin sent, or this tenant's cachely-t<id> tags; not another tenant's, not wildcards",
  ),
});
export type PurgeBody = z.infer<typeof purgeBodySchema>;

export const purgeResultSchema = z.strictObject({
  ok: z.literal(true),
  purged: z.strictObject({
    urls: z.array(str()),
    prefixes: z.array(str()),
    tags: z.array(str()),
    at: str().describe("When it took effect (ISO): objects stored before it are purged"),
    full: z.boolean().describe("Too many purge records: every cache version was bumped instead"),
  }),
});

const fieldError = (path: string, message: string) =>
  badRequest(`Invalid ${path}: ${message}`, { fields: [{ path, message }] });

/** The tenant's own hosts: tenant, preview, and custom domains (lower case, port kept). */
async function tenantHosts(s: Services, tenant: Tenant): Promise<Set<string>> {
  const d = s.config.proxyDomain;
  const rows = await s.db.select({ hostname: domains.hostname }).from(domains)
    .where(eq(domains.tenantId, tenant.id));
  const custom = rows.map((r) => r.hostname.toLowerCase());
  return new Set([`${tenant.slug}.${d}`, `${tenant.slug}.preview.${d}`, ...custom]);
}

/** A tenant-host URL or a path -> `/path` or `/path?normalised query`; throws naming the field. */
function purgePath(raw: string, field: string, hosts: Set<string>): string {
  let path: string;
  let query: string;
  if (raw.startsWith("/")) {
    if (raw.startsWith("//")) throw fieldError(field, "must be a path or a URL of this tenant");
    const q = raw.indexOf("?");
    path = q === -1 ? raw : raw.slice(0, q);
    query = q === -1 ? "" : raw.slice(q + 1);
  } else {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw fieldError(field, "must be a path starting with / or an http(s) URL");
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw fieldError(field, "must be a path starting with / or an http(s) URL");
    }
    if (!hosts.has(u.host.toLowerCase()) && !hosts.has(u.hostname.toLowerCase())) {
      throw fieldError(field, `${u.host} is not one of this tenant's hosts`);
    }
    path = u.pathname;
    query = u.search.slice(1);
  }
  const q = query ? normaliseQuery(query, []) : "";
  return q ? `${path}?${q}` : path;
}

/**
 * A tag the tenant may purge: one printable ASCII token without commas (the Cache-Tag list
 * separator) or `*` (a wildcard to some CDNs); `cachely-...` only in the tenant's own namespace.
 */
function purgeTag(tenantId: number, tag: string, field: string): string {
  if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) {
    throw fieldError(field, `must be 1 to ${MAX_TAG_LENGTH} characters`);
  }
  if (!/^[\x21-\x7e]+$/.test(tag) || tag.includes(",")) {
    throw fieldError(field, "must be one tag: printable ASCII, no spaces, commas or control bytes");
  }
  if (tag.includes("*")) throw fieldError(field, "must not be a wildcard");
  const ns = tenantTag(tenantId);
  if (tag.toLowerCase().startsWith("cachely-") && !ownTag(tenantId, tag)) {
    throw fieldError(
      field,
      `cachely- tags are reserved: only ${ns} and ${ns}-\u2026 are this tenant's`,
    );
  }
  // An origin tag's CDN name (cachely-t<id>-o-<tag>) is that origin tag, as the edge matches it.
  const origin = originTag(tenantId, "");
  if (tag.startsWith(origin) && tag.length > origin.length) {
    return purgeTag(tenantId, tag.slice(origin.length), field);
  }
  return tag;
}

/** Validates and normalises a purge body; every refusal names its field. */
export async function normalisePurge(s: Services, tenant: Tenant, body: PurgeBody) {
  const n = (body.urls?.length ?? 0) + (body.prefixes?.length ?? 0) + (body.tags?.length ?? 0);
  const named = (["urls", "prefixes", "tags"] as const).filter((k) => body[k] !== undefined);
  if (named.length === 0) throw fieldError("urls", "give urls, prefixes or tags");
  for (const k of named) if (body[k]!.length === 0) throw fieldError(k, "must not be empty");
  if (n > MAX_PURGE_ENTRIES) {
    const biggest = named.reduce((a, b) => body[a]!.length >= body[b]!.length ? a : b);
    throw fieldError(biggest, `${n} entries in all, at most ${MAX_PURGE_ENTRIES} allowed`);
  }
  const hosts = body.urls || body.prefixes ? await tenantHosts(s, tenant) : new Set<string>();
  const urls = (body.urls ?? []).map((u, i) => purgePath(u, `urls[${i}]`, hosts));
  const prefixes = (body.prefixes ?? []).map((p, i) => {
    const path = purgePath(p, `prefixes[${i}]`, hosts);
    if (path.includes("?")) throw fieldError(`prefixes[${i}]`, "must be a path without a query");
    return path;
  });
  const tags = (body.tags ?? []).map((t, i) => purgeTag(tenant.id, t.trim(), `tags[${i}]`));
  return { urls: [...new Set(urls)], prefixes: [...new Set(prefixes)], tags: [...new Set(tags)] };
}

/**
 * PURGES_PER_MINUTE per tenant, counted in KV (every instance shares it): each purge costs
 * a snapshot rewrite and a CDN purge call, so a member cannot spend the CDN's purge quota
 * or keep the tenant's snapshot churning. Bad bodies are refused before they count.
 */
async function limitPurges(s: Services, tenantId: number): Promise<void> {
  const r = await hitRateLimit(
    s.kv,
    "purge",
    String(tenantId),
    PURGES_PER_MINUTE,
    60_000,
    s.clock.now(),
  );
  if (!r.allowed) {
    throw tooManyRequests(
      r.retryAfterSeconds,
      `Too many purges: at most ${PURGES_PER_MINUTE} per minute per project`,
    );
  }
}

/** The tenant's purge records are past MAX_PURGE_RECORDS or MAX_PURGE_BYTES. */
async function overLimits(tx: Services, tenantId: number): Promise<boolean> {
  const [{ n, bytes }] = await tx.db.select({
    n: count(),
    bytes: sql<string>`coalesce(sum(octet_length(${cachePurges.urls}::text)
      + octet_length(${cachePurges.prefixes}::text) + octet_length(${cachePurges.tags}::text)
      + coalesce(octet_length(${cachePurges.tagTimes}::text), 0)
      + coalesce(octet_length(${cachePurges.announced}::text), 0)
      + coalesce(octet_length(${cachePurges.announcements}::text), 0)), 0)`,
  }).from(cachePurges).where(eq(cachePurges.tenantId, tenantId));
  return Number(n) > MAX_PURGE_RECORDS || Number(bytes) > MAX_PURGE_BYTES;
}

/**
 * Inserts one purge record inside a tenant change (lib/edge_config/changes.ts), so it reaches
 * every instance with the snapshot. Past MAX_PURGE_RECORDS records or MAX_PURGE_BYTES, the
 * tag-only records are merged (lib/cache/purge_compact.ts), and if that is not enough the
 * records are folded into a bump of every cache version (`full`).
 */
export async function insertPurge(
  tx: Services,
  tenantId: number,
  at: number,
  p: {
    urls: string[];
    prefixes: string[];
    tags: string[];
    announced?: Announced;
  },
): Promise<{ full: boolean; settings: Tenant["settings"] }> {
  await tx.db.insert(cachePurges).values({ tenantId, atMs: at, ...p });
  let full = await overLimits(tx, tenantId);
  // Tag-only records merged into one before every purge is folded into a full one.
  if (full && await compactTagPurges(tx, tenantId, at)) full = await overLimits(tx, tenantId);
  if (full) {
    // Folded: every older object becomes unreachable, so no record is needed any more.
    await tx.db.delete(cachePurges).where(eq(cachePurges.tenantId, tenantId));
  }
  const [row] = await tx.db.update(tenants).set({
    ...(full
      ? {
        apiCacheVersion: sql`${tenants.apiCacheVersion} + 1`,
        assetCacheVersion: sql`${tenants.assetCacheVersion} + 1`,
        htmlCacheVersion: sql`${tenants.htmlCacheVersion} + 1`,
      }
      : {}),
    updatedAt: new Date(at),
  }).where(eq(tenants.id, tenantId)).returning({ settings: tenants.settings });
  return { full, settings: row.settings };
}

/**
 * Records the purge (or, past MAX_PURGE_RECORDS records or MAX_PURGE_BYTES of entries, bumps
 * every version instead), audits, tells the CDN.
 */
export async function purgeByTarget(
  s: Services,
  tenant: Tenant,
  body: PurgeBody,
  actorUserId: string,
) {
  const p = await normalisePurge(s, tenant, body);
  await limitPurges(s, tenant.id);
  const at = s.clock.now();
  const { full, settings } = await changeTenant(s, tenant.id, async (tx) => {
    const { full, settings } = await insertPurge(tx, tenant.id, at, p);
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: "cache.purged",
      target: tenant.slug,
      metadata: {
        urls: p.urls.slice(0, 20),
        prefixes: p.prefixes.slice(0, 20),
        tags: p.tags.slice(0, 20),
        entries: p.urls.length + p.prefixes.length + p.tags.length,
        full,
      },
    });
    return { full, settings };
  });
  const cdnTags = full || p.urls.length + p.prefixes.length > 0
    ? [tenantTag(tenant.id), ...p.tags]
    : p.tags;
  await purgeCdnTags(s, tenant.id, cdnTags, settings);
  return { ok: true as const, purged: { ...p, at: new Date(at).toISOString(), full } };
}
