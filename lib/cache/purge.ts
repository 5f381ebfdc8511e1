/**
 * Purge by URL, prefix or tag (issue 23, docs/decisions.md "Purge by URL, prefix or tag").
 * A purge is a record in cache_purges written with the tenant marked changed, so it reaches
 * every instance with the tenant's snapshot (within the snapshot freshness bound): the edge
 * then treats an object stored before the purge that it matches as a miss, and drops it from
 * both cache tiers (edge/cache/purges.ts). The CDN hook gets the tags (and, for URLs and
 * prefixes, which a tag-purging CDN cannot name, the tenant's tag).
 */
import { count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Services } from "../services.ts";
import { cachePurges, domains, tenants } from "../db/schema/mod.ts";
import type { Tenant } from "../tenants/service.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { badRequest } from "../errors.ts";
import { str } from "../http/text.ts";
import { normaliseQuery } from "./query.ts";
import { purgeCdnTags } from "../cdn/purge.ts";
import { tenantTag } from "../cdn/tags.ts";
import { MAX_PURGE_RECORDS } from "./purge_records.ts";

/** Entries one purge may name, over its three lists together. */
export const MAX_PURGE_ENTRIES = 1000;

const entry = str().min(1, "must not be empty").max(2048, "must be at most 2048 characters");
const list = entry.array().max(MAX_PURGE_ENTRIES, `must have at most ${MAX_PURGE_ENTRIES} entries`)
  .optional();
export const purgeBodySchema = z.strictObject({
  urls: list.describe("Tenant-host URLs or paths; a query purges that variant only"),
  prefixes: list.describe("Path prefixes on the tenant host, e.g. /~api/entries/"),
  tags: list.describe("Cache-Tag values the origin sent, or the tenant's cachely tags"),
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

/** A tenant-host URL or a path → `/path` or `/path?normalised query`; throws naming the field. */
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
  const tags = (body.tags ?? []).map((t, i) => {
    const v = t.trim();
    if (!/^[^\s,]{1,256}$/.test(v)) {
      throw fieldError(
        `tags[${i}]`,
        "must be one tag: no spaces or commas, at most 256 characters",
      );
    }
    return v;
  });
  return { urls: [...new Set(urls)], prefixes: [...new Set(prefixes)], tags: [...new Set(tags)] };
}

/** Records the purge (or, past MAX_PURGE_RECORDS, bumps every version), audits, tells the CDN. */
export async function purgeByTarget(
  s: Services,
  tenant: Tenant,
  body: PurgeBody,
  actorUserId: string,
) {
  const p = await normalisePurge(s, tenant, body);
  const at = s.clock.now();
  const { full, settings } = await changeTenant(s, tenant.id, async (tx) => {
    await tx.db.insert(cachePurges).values({ tenantId: tenant.id, atMs: at, ...p });
    const [{ n }] = await tx.db.select({ n: count() }).from(cachePurges)
      .where(eq(cachePurges.tenantId, tenant.id));
    const full = Number(n) > MAX_PURGE_RECORDS;
    if (full) {
      // Folded: every older object becomes unreachable, so no record is needed any more.
      await tx.db.delete(cachePurges).where(eq(cachePurges.tenantId, tenant.id));
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
    }).where(eq(tenants.id, tenant.id)).returning({ settings: tenants.settings });
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
    return { full, settings: row.settings };
  });
  const cdnTags = full || p.urls.length + p.prefixes.length > 0
    ? [tenantTag(tenant.id), ...p.tags]
    : p.tags;
  await purgeCdnTags(s, tenant.id, cdnTags, settings);
  return { ok: true as const, purged: { ...p, at: new Date(at).toISOString(), full } };
}
