/**
 * Cache-refresh webhooks (SPEC "Cache-refresh webhook"): per-tenant receiver URLs
 * that a CMS calls after publishing. Only the SHA-256 of the URL-embedded secret
 * is stored; the raw secret is shown once, on create and regenerate.
 */
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cacheRefreshWebhooks, tenants, webhookEvents } from "../db/schema/mod.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { badRequest, notFound } from "../errors.ts";
import type { ProviderKind } from "../providers/mod.ts";

export type CacheRefreshWebhook = typeof cacheRefreshWebhooks.$inferSelect;

/**
 * What a delivery purges: "all" bumps the API cache version (SPEC, the default); "entities"
 * purges the answers holding the entities the payload names (lib/webhooks/entity_purge.ts).
 */
export const WEBHOOK_SCOPES = ["all", "entities"] as const;
export type WebhookScope = typeof WEBHOOK_SCOPES[number];
export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/** Webhooks per tenant (decisions.md): enough for one per CMS space and environment. */
export const MAX_WEBHOOKS_PER_TENANT = 20;
/** Events kept per webhook; older rows are pruned after each delivery (SPEC "Limits"). */
export const EVENT_HISTORY_LIMIT = 50;
/** Prefix that makes a leaked secret recognisable in logs and secret scanners. */
const SECRET_PREFIX = "crw_";

/** What listings show: metadata only, never the secret or its hash (SPEC). */
export function webhookView(w: CacheRefreshWebhook) {
  return {
    id: w.id,
    provider: w.provider,
    refreshApi: w.refreshApi,
    refreshAssets: w.refreshAssets,
    scope: w.scope,
    enabled: w.enabled,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    lastTriggeredAt: w.lastTriggeredAt?.toISOString() ?? null,
    lastStatus: w.lastStatus,
  };
}

export function eventView(e: WebhookEventRow) {
  return {
    id: e.id,
    webhookId: e.webhookId,
    status: e.status,
    eventType: e.eventType,
    refreshType: e.refreshType,
    message: e.message,
    previousApiCacheVersion: e.previousApiCacheVersion,
    nextApiCacheVersion: e.nextApiCacheVersion,
    receivedAt: e.receivedAt.toISOString(),
    startedAt: e.startedAt?.toISOString() ?? null,
    finishedAt: e.finishedAt?.toISOString() ?? null,
    durationMs: e.durationMs,
    kvSyncedAt: e.kvSyncedAt?.toISOString() ?? null,
    purged: e.purged ?? null,
  };
}

/** The receiver URL with the raw secret embedded (returned once). */
export function receiverUrl(s: Services, id: number, secret: string): string {
  return `${s.config.publicUrl}/api/webhooks/cache-refresh/${id}/${secret}`;
}

export type IssuedWebhook = {
  webhook: ReturnType<typeof webhookView>;
  secret: string;
  url: string;
};

function issued(s: Services, w: CacheRefreshWebhook, secret: string): IssuedWebhook {
  return { webhook: webhookView(w), secret, url: receiverUrl(s, w.id, secret) };
}

async function newSecret(): Promise<{ secret: string; hash: string }> {
  const secret = randomToken(32, SECRET_PREFIX);
  return { secret, hash: await sha256Hex(secret) };
}

export async function listWebhooks(s: Services, tenantId: number): Promise<CacheRefreshWebhook[]> {
  return await s.db.select().from(cacheRefreshWebhooks)
    .where(and(eq(cacheRefreshWebhooks.tenantId, tenantId), isNull(cacheRefreshWebhooks.deletedAt)))
    .orderBy(cacheRefreshWebhooks.id);
}

/** The tenant's webhook `id`, unless deleted: every read and write of one webhook. */
function liveWebhook(tenantId: number, id: number) {
  return and(
    eq(cacheRefreshWebhooks.id, id),
    eq(cacheRefreshWebhooks.tenantId, tenantId),
    isNull(cacheRefreshWebhooks.deletedAt),
  );
}

export async function createWebhook(
  s: Services,
  tenantId: number,
  actorUserId: string,
  input: { provider: ProviderKind; refreshAssets?: boolean; scope?: WebhookScope },
): Promise<IssuedWebhook> {
  const { secret, hash } = await newSecret();
  const now = new Date(s.clock.now());
  // Counted and inserted under the tenant's row lock: concurrent creations (on any
  // instance) are counted one after the other and cannot exceed the limit together.
  const w = await s.db.transaction(async (tx) => {
    await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId))
      .for("update");
    const [{ n }] = await tx.select({ n: count() }).from(cacheRefreshWebhooks)
      .where(
        and(eq(cacheRefreshWebhooks.tenantId, tenantId), isNull(cacheRefreshWebhooks.deletedAt)),
      );
    if (n >= MAX_WEBHOOKS_PER_TENANT) {
      throw badRequest(
        `Too many cache-refresh webhooks: at most ${MAX_WEBHOOKS_PER_TENANT} per tenant`,
      );
    }
    const [w] = await tx.insert(cacheRefreshWebhooks).values({
      tenantId,
      provider: input.provider,
      secretHash: hash,
      // SPEC: the default mode refreshes the API cache only; assets on request.
      refreshApi: true,
      refreshAssets: input.refreshAssets ?? false,
      // SPEC: "all" (the version bump) unless precise purging is asked for.
      scope: input.scope ?? "all",
      enabled: true,
      createdAt: now,
      updatedAt: now,
    }).returning();
    return w;
  });
  await recordAudit(s, {
    tenantId,
    actorUserId,
    action: "cache_refresh_webhook.created",
    target: `webhook:${w.id}`,
    metadata: { provider: w.provider, refreshAssets: w.refreshAssets, scope: w.scope },
  });
  return issued(s, w, secret);
}

/** New secret; the old URL stops working with this write (SPEC "old URL dead immediately"). */
export async function regenerateWebhook(
  s: Services,
  tenantId: number,
  id: number,
  actorUserId: string,
): Promise<IssuedWebhook> {
  const { secret, hash } = await newSecret();
  const [w] = await s.db.update(cacheRefreshWebhooks)
    .set({ secretHash: hash, updatedAt: new Date(s.clock.now()) })
    .where(liveWebhook(tenantId, id)).returning();
  if (!w) throw notFound("Webhook");
  await recordAudit(s, {
    tenantId,
    actorUserId,
    action: "cache_refresh_webhook.regenerated",
    target: `webhook:${id}`,
    metadata: { provider: w.provider },
  });
  return issued(s, w, secret);
}

/**
 * Turns a webhook off or on, or changes whether it also purges assets, keeping its URL
 * (decisions.md "Webhooks"). A disabled webhook's receiver
 * answers 404 like an unknown one, and records no event.
 */
export async function updateWebhook(
  s: Services,
  tenantId: number,
  id: number,
  actorUserId: string,
  patch: { enabled?: boolean; refreshAssets?: boolean; scope?: WebhookScope },
): Promise<CacheRefreshWebhook> {
  // Only the fields given, in one conditional UPDATE: two PATCHes of different fields at
  // once both land (no read of the other field first).
  const [w] = await s.db.update(cacheRefreshWebhooks)
    .set({
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
      ...(patch.refreshAssets === undefined ? {} : { refreshAssets: patch.refreshAssets }),
      ...(patch.scope === undefined ? {} : { scope: patch.scope }),
      updatedAt: new Date(s.clock.now()),
    })
    .where(liveWebhook(tenantId, id)).returning();
  if (!w) throw notFound("Webhook");
  await recordAudit(s, {
    tenantId,
    actorUserId,
    action: "cache_refresh_webhook.updated",
    target: `webhook:${id}`,
    metadata: {
      provider: w.provider,
      enabled: w.enabled,
      refreshAssets: w.refreshAssets,
      scope: w.scope,
    },
  });
  return w;
}

/**
 * Soft delete: the row stays so its event history remains listable (SPEC "Event rows
 * remain after the webhook is deleted"); the hash is overwritten so the URL is dead at once.
 */
export async function deleteWebhook(
  s: Services,
  tenantId: number,
  id: number,
  actorUserId: string,
): Promise<void> {
  const now = new Date(s.clock.now());
  const rows = await s.db.update(cacheRefreshWebhooks)
    .set({
      deletedAt: now,
      enabled: false,
      secretHash: `deleted:${await sha256Hex(randomToken(32))}`,
      updatedAt: now,
    })
    .where(liveWebhook(tenantId, id)).returning({
      id: cacheRefreshWebhooks.id,
      provider: cacheRefreshWebhooks.provider,
    });
  if (rows.length === 0) throw notFound("Webhook");
  await recordAudit(s, {
    tenantId,
    actorUserId,
    action: "cache_refresh_webhook.deleted",
    target: `webhook:${id}`,
    metadata: { provider: rows[0].provider },
  });
}

/**
 * The most recent events of a webhook of this tenant, newest first. Works for deleted
 * webhooks too; 404 when the tenant never had a webhook with this id.
 */
export async function listEvents(
  s: Services,
  tenantId: number,
  webhookId: number,
): Promise<WebhookEventRow[]> {
  const [w] = await s.db.select({ id: cacheRefreshWebhooks.id }).from(cacheRefreshWebhooks)
    .where(
      and(eq(cacheRefreshWebhooks.id, webhookId), eq(cacheRefreshWebhooks.tenantId, tenantId)),
    );
  if (!w) throw notFound("Webhook");
  return await s.db.select().from(webhookEvents)
    .where(and(eq(webhookEvents.tenantId, tenantId), eq(webhookEvents.webhookId, webhookId)))
    .orderBy(desc(webhookEvents.id)).limit(EVENT_HISTORY_LIMIT);
}
