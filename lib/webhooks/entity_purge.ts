/**
 * A delivery to a cache-refresh webhook in "entities" scope: the payload's entities (the
 * provider's knowledge, sdk/entities/) become a tag purge (lib/cache/purge.ts insertPurge),
 * which reaches every instance with the tenant's snapshot like any purge. The answers
 * tagged with those entities, the lists of their content types and the answers tagged
 * tenant-wide are purged; the rest stay cached. A payload naming no usable entity (not
 * JSON, a content-type change, a draft, too many ids) falls back to the version bump, with
 * the reason kept on the event row.
 */
import { eq, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { tenants, type WebhookPurge } from "../db/schema/mod.ts";
import type { CacheRefreshWebhook } from "./cache_refresh.ts";
import { ENTITIES, type EntityNotice } from "../../sdk/entities/mod.ts";
import { fullEntityTag, noticeTags } from "../cache/entity_tags.ts";
import { insertPurge } from "../cache/purge.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { purgeCdnTags } from "../cdn/purge.ts";
import { kindTag } from "../cdn/tags.ts";
import type { ProviderKind } from "../../sdk/providers.ts";

/** Ids named on the event row (the count is kept whole). */
const FIRST_IDS = 10;

/** The entities a delivery announces, or why it names none this scope can purge by. */
export function readNotice(
  provider: string,
  headers: Headers,
  text: string,
): EntityNotice | { reason: string } {
  const knowledge = ENTITIES[provider as ProviderKind];
  if (!knowledge) return { reason: `${provider} webhooks name no entities` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { reason: "the payload is not JSON" };
  }
  try {
    return knowledge.notice(headers, body);
  } catch {
    return { reason: "the payload could not be read" };
  }
}

/** The event row's record of a purge, or of a fallback. */
export function purgeRecordOf(n: EntityNotice | { reason: string }): WebhookPurge {
  if ("reason" in n) {
    return {
      scope: "entities",
      action: null,
      ids: 0,
      firstIds: [],
      types: null,
      revisions: {},
      fallback: n.reason,
    };
  }
  const first = n.ids.slice(0, FIRST_IDS);
  const revisions: Record<string, string | number> = {};
  for (const id of first) if (n.revisions[id] !== undefined) revisions[id] = n.revisions[id];
  return {
    scope: "entities",
    action: n.action,
    ids: n.ids.length,
    firstIds: first,
    types: n.types,
    revisions,
    fallback: null,
  };
}

/**
 * Purges the notice's tags (and bumps the asset version when the webhook opts in), in one
 * tenant change; answers the versions as they stand.
 */
export async function purgeEntities(s: Services, w: CacheRefreshWebhook, n: EntityNotice) {
  const at = s.clock.now();
  const tags = noticeTags(n).map((t) => fullEntityTag(w.tenantId, t));
  const { v, full } = await changeTenant(s, w.tenantId, async (tx) => {
    const announced = { action: n.action, ids: n.ids, types: n.types, revisions: n.revisions };
    const { full } = await insertPurge(tx, w.tenantId, at, {
      urls: [],
      prefixes: [],
      tags,
      announced,
    });
    const [v] = await tx.db.update(tenants).set({
      ...(w.refreshAssets ? { assetCacheVersion: sql`${tenants.assetCacheVersion} + 1` } : {}),
      updatedAt: new Date(at),
    }).where(eq(tenants.id, w.tenantId)).returning({
      apiCacheVersion: tenants.apiCacheVersion,
      assetCacheVersion: tenants.assetCacheVersion,
      htmlCacheVersion: tenants.htmlCacheVersion,
      settings: tenants.settings,
    });
    return { v, full };
  });
  if (!v) throw new Error("Tenant vanished during refresh");
  // A CDN knows no entity tags: the API's kind tag (and the assets' when opted in).
  const cdn = [
    kindTag(w.tenantId, "api"),
    ...(w.refreshAssets ? [kindTag(w.tenantId, "assets")] : []),
  ];
  await purgeCdnTags(s, w.tenantId, cdn, v.settings);
  return {
    full,
    versions: {
      apiCacheVersion: v.apiCacheVersion,
      assetCacheVersion: v.assetCacheVersion,
      htmlCacheVersion: v.htmlCacheVersion,
    },
  };
}
