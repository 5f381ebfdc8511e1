/**
 * "Why isn't this URL cached?" (docs/decisions.md "HTTP caching: Cache-Status"): a URL or
 * path on one of the tenant's hosts -> what the edge of this instance knows about it
 * (edge/explain.ts): its cache key, eligibility, the copy it holds, the last origin answer and
 * why it was or was not stored, and the last purge that matched. The origin is never fetched
 * (no SSRF surface); the edge answers from memory, its second tier and the tenant's snapshot.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { domains } from "../db/schema/mod.ts";
import { badRequest } from "../errors.ts";
import { str } from "../base/text.ts";
import { classifyHost } from "../base/host.ts";
import type { EdgeTarget, Explanation } from "../../edge/types.ts";

/** Asks the in-process edge (set by bootstrap); absent when no edge runs here. */
export type EdgeExplainer = (
  target: EdgeTarget,
  url: URL,
  method: string,
) => Promise<{ slug: string; explanation: Explanation } | null>;

export const explainQuerySchema = z.object({
  url: str().trim().min(1, "give a URL or a path").max(8192, "must be at most 8192 characters")
    .describe("A URL on one of the tenant's hosts, or a path (then the tenant host)"),
  method: str().trim().toUpperCase().regex(/^[A-Z]{1,16}$/, "must be an HTTP method such as GET")
    .optional().describe("The visitor's method (default GET)"),
});

const iso = str().describe("ISO time");
export const explainResultSchema = z.strictObject({
  url: str().describe("The URL explained, on the host it was asked for"),
  kind: z.enum(["api", "asset", "site", "other"]).describe("Which proxy serves it"),
  cacheMode: z.enum(["fixed", "origin"]),
  eligible: z.boolean().describe("Whether a request like this may be answered from the cache"),
  blockers: z.array(z.strictObject({ code: str(), message: str() })).describe(
    "What keeps it out of the cache before the origin is asked (method, bypass parameter, type\u2026)",
  ),
  key: str().nullable().describe("The edge cache key (no secrets: credentials are never in it)"),
  varyOn: str().nullable().describe("Request headers the origin said the answer varies on"),
  stored: z.strictObject({
    storedAt: iso,
    ageSeconds: z.number().int(),
    ttlSeconds: z.number().int().describe("Freshness lifetime it was stored with"),
    remainingSeconds: z.number().int().describe("Freshness left (negative: expired)"),
    status: z.number().int(),
    fresh: z.boolean(),
    purged: z.boolean().describe("A purge newer than the copy matches it: it is not served"),
  }).nullable().describe("The copy this instance holds, if any"),
  lastOriginAnswer: z.strictObject({
    at: iso,
    originStatus: z.number().int().nullable(),
    stored: z.boolean(),
    ttlSeconds: z.number().int().nullable(),
    notStoredBecause: str().nullable().describe(
      "no-store, private, set-cookie, vary, no-lifetime, status, size, range, type-not-allowed\u2026",
    ),
    cacheStatus: str().describe("The RFC 9211 Cache-Status that answer carried"),
  }).nullable().describe("The last answer this instance got from the origin for the key"),
  lastPurge: z.strictObject({
    at: iso,
    by: z.enum(["url", "prefix", "tag"]),
    entry: str(),
  }).nullable().describe("The newest purge that matches the URL"),
  scope: str().describe("Whose knowledge this is"),
});
export type ExplainResult = z.infer<typeof explainResultSchema>;

const urlError = (message: string) =>
  badRequest(`Invalid url: ${message}`, { fields: [{ path: "url", message }] });

/** The URL and edge target of `raw` when it is on one of the tenant's hosts; else a 400. */
async function targetOf(
  s: Services,
  tenant: Tenant,
  raw: string,
): Promise<{ url: URL; target: EdgeTarget }> {
  const proto = new URL(s.config.publicUrl).protocol;
  const tenantHost = `${tenant.slug}.${s.config.proxyDomain}`;
  let url: URL;
  if (raw.startsWith("/") && !raw.startsWith("//")) url = new URL(raw, `${proto}//${tenantHost}`);
  else {
    try {
      url = new URL(raw);
    } catch {
      throw urlError("must be a path starting with / or an http(s) URL");
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw urlError("must be a path starting with / or an http(s) URL");
  }
  if (url.username || url.password) throw urlError("must not carry credentials");
  const host = classifyHost(url.host, s.config.proxyDomain);
  if (host.kind !== "other") {
    if (host.slug !== tenant.slug) throw urlError(`${url.host} is not one of this tenant's hosts`);
    return { url, target: { surface: host.kind, slug: host.slug } };
  }
  const [own] = await s.db.select({ id: domains.id }).from(domains)
    .where(and(eq(domains.tenantId, tenant.id), eq(domains.hostname, host.hostname))).limit(1);
  if (!own) throw urlError(`${url.host} is not one of this tenant's hosts`);
  return { url, target: { surface: "domain", hostname: host.hostname } };
}

/** The parameters of a Cache-Status value (RFC 9211) as a map. */
function statusParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of value.split(";").slice(1)) {
    const [k, v] = part.trim().split("=");
    if (k) out.set(k, v ?? "");
  }
  return out;
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Explains `raw` for the tenant; 400 naming the field for a URL off its hosts. */
export async function explainUrl(
  s: Services,
  edgeExplain: EdgeExplainer,
  tenant: Tenant,
  q: z.infer<typeof explainQuerySchema>,
): Promise<ExplainResult> {
  const { url, target } = await targetOf(s, tenant, q.url);
  const got = await edgeExplain(target, url, q.method ?? "GET");
  if (got === null || got.slug !== tenant.slug) {
    throw urlError(`${url.host} is not an active host of this tenant`);
  }
  const e = got.explanation;
  const now = s.clock.now();
  const last = e.lastFetch;
  const p = last === null ? null : statusParams(last.cacheStatus);
  const ttl = p?.get("ttl");
  return {
    url: url.href,
    kind: e.kind,
    cacheMode: e.cacheMode,
    eligible: e.eligible,
    blockers: e.blockers,
    key: e.key,
    varyOn: e.varyOn,
    stored: e.stored === null ? null : {
      storedAt: new Date(e.stored.storedAt).toISOString(),
      ageSeconds: seconds(now - e.stored.storedAt),
      ttlSeconds: seconds(e.stored.ttlMs),
      remainingSeconds: seconds(e.stored.storedAt + e.stored.ttlMs - now),
      status: e.stored.status,
      fresh: e.stored.fresh,
      purged: e.stored.purged,
    },
    lastOriginAnswer: last === null || p === null ? null : {
      at: new Date(last.at).toISOString(),
      originStatus: p.has("fwd-status") ? Number(p.get("fwd-status")) : null,
      stored: p.has("stored"),
      ttlSeconds: ttl === undefined ? null : Number(ttl),
      notStoredBecause: p.has("stored") ? null : p.get("detail") ?? null,
      cacheStatus: last.cacheStatus,
    },
    lastPurge: e.lastPurge === null ? null : {
      at: new Date(e.lastPurge.at).toISOString(),
      by: e.lastPurge.by,
      entry: e.lastPurge.entry,
    },
    scope:
      "This instance's edge: its cache, its last origin answers (kept in memory) and the tenant's purge records",
  };
}
