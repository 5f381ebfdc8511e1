/**
 * The purge hook (docs/decisions.md "CDN offload"): every cache-version bump of a tenant
 * with CDN offload on POSTs the matching Cache-Tag values, so a CDN in front drops what
 * the bump made stale instead of serving it for the rest of its TTL. Both adapters send
 * `{"tags": [...]}` as JSON:
 * - `deno-deploy`: Deno Deploy's invalidation endpoint (lib/cdn/deno_deploy.ts; the
 *   default URL when CDN_PURGE_URL is unset), without Authorization, as documented;
 * - `http`: CDN_PURGE_URL, a generic purge URL (an nginx purge service, Varnish, a worker
 *   calling Cloudflare's or Fastly's API), with `Authorization: Bearer CDN_PURGE_TOKEN`
 *   when one is set.
 * A failed purge is logged and never fails the bump: the CDN's TTL still bounds staleness.
 */
import { eq } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants } from "../db/schema/mod.ts";
import type { TenantSettings } from "../db/schema/core.ts";
import { type CdnKind, cdnTag, kindTag, profileTag, tenantTag } from "./tags.ts";

const PURGE_TIMEOUT_MS = 5_000;

/** What a bump invalidates: counters by kind (all three: the tenant tag), or profiles. */
export type PurgeScope = { kinds: CdnKind[] } | { profiles: string[] };

export function purgeTags(tenantId: number, scope: PurgeScope): string[] {
  if ("profiles" in scope) return scope.profiles.map((p) => profileTag(tenantId, p));
  if (scope.kinds.length === 3) return [tenantTag(tenantId)];
  return scope.kinds.map((k) => kindTag(tenantId, k));
}

/**
 * Purges the tags of a bump when a hook is configured and the tenant offloads to a CDN.
 * `settings` saves a read when the caller already has the row.
 */
export function purgeAfterBump(
  s: Services,
  tenantId: number,
  scope: PurgeScope,
  settings?: TenantSettings,
): Promise<void> {
  return purgeCdnTags(s, tenantId, purgeTags(tenantId, scope), settings);
}

/** Tags per purge request: Deno Deploy takes at most 500 (docs/operations.md). */
const TAGS_PER_REQUEST = 500;

/**
 * POSTs `tags` to the purge hook when one is configured and the tenant offloads to a CDN,
 * TAGS_PER_REQUEST at a time. Each goes in the tenant's namespace (lib/cdn/tags.ts `cdnTag`):
 * no caller can make the hook purge another tenant's objects.
 */
export async function purgeCdnTags(
  s: Services,
  tenantId: number,
  tags: string[],
  settings?: TenantSettings,
): Promise<void> {
  const hook = s.config.cdnPurge;
  if (!hook) return;
  try {
    if (!settings) {
      const [row] = await s.db.select({ settings: tenants.settings }).from(tenants)
        .where(eq(tenants.id, tenantId));
      settings = row?.settings;
    }
  } catch (e) {
    return failed(s, tenantId, hook, e);
  }
  if (settings?.cdnOffload !== true) return;
  const all = [...new Set(tags.map((t) => cdnTag(tenantId, t)))];
  for (let i = 0; i < all.length; i += TAGS_PER_REQUEST) {
    try {
      const res = await s.fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(hook.token && hook.kind === "http" ? { authorization: `Bearer ${hook.token}` } : {}),
        },
        body: JSON.stringify({ tags: all.slice(i, i + TAGS_PER_REQUEST) }),
        redirect: "manual",
        signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) {
        s.log.warn("cdn purge refused", { tenantId, status: res.status, kind: hook.kind });
      }
    } catch (e) {
      failed(s, tenantId, hook, e);
    }
  }
}

function failed(s: Services, tenantId: number, hook: { kind: string }, e: unknown): void {
  s.log.warn("cdn purge failed", {
    tenantId,
    kind: hook.kind,
    error: e instanceof Error ? e.name : "unknown",
  });
}
