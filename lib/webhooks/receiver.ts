/**
 * The public cache-refresh receiver (SPEC "Webhooks, members and invites" and
 * "Events" 3): authenticate by the URL-embedded secret, read a bounded body for the
 * event type, bump cache versions, re-sync the edge snapshot, and record the event
 * as received -> synced | failed. A webhook in "entities" scope purges the entities its
 * payload names instead of bumping (lib/webhooks/entity_purge.ts), and falls back to the
 * bump, with the reason on the event, when the payload names none it can use.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { cacheRefreshWebhooks, tenants, webhookEvents } from "../db/schema/mod.ts";
import { sha256Hex, timingSafeEqual } from "../crypto/mod.ts";
import type { CacheRefreshWebhook } from "./cache_refresh.ts";
import { readBodyText } from "../http/validate.ts";
import { ApiError, notFound } from "../errors.ts";
import { type ProviderKind, webhookEventType } from "../providers/mod.ts";
import { changeTenant, isProjected } from "../edge_config/changes.ts";
import { purgeAfterBump } from "../cdn/purge.ts";
import { pruneEvents } from "./events.ts";
import type { WebhookPurge } from "../db/schema/mod.ts";
import { purgeEntities, purgeRecordOf, readNotice } from "./entity_purge.ts";

/** SPEC "Limits": cache-refresh webhook body 64 KB. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/**
 * Bump-and-sync runs one at a time per tenant in this process: two concurrent syncs could
 * otherwise finish out of order and leave the older versions in KV.
 */
const tenantChains = new Map<number, Promise<unknown>>();

function serialised<T>(tenantId: number, fn: () => Promise<T>): Promise<T> {
  const prev = tenantChains.get(tenantId) ?? Promise.resolve();
  const next = prev.catch(() => {}).then(fn);
  tenantChains.set(tenantId, next);
  next.finally(() => {
    if (tenantChains.get(tenantId) === next) tenantChains.delete(tenantId);
  }).catch(() => {});
  return next;
}

/** Compared against when the id is unknown, so both paths hash and compare the same way. */
const DUMMY_HASH = "0".repeat(64);

type Versions = { apiCacheVersion: number; assetCacheVersion: number; htmlCacheVersion: number };

export type RefreshResult =
  | {
    ok: true;
    refreshed: true;
    versions: Versions;
    /** "entities" scope: what was purged, or why it fell back to the version bump. */
    purged?: WebhookPurge;
  }
  | { ok: true; refreshed: false };

/** Every authentication failure is the same 404 (SPEC), so probing learns nothing. */
const authFailure = () => notFound("Webhook");

/**
 * Verifies the secret in constant time against the stored SHA-256. Unknown ids,
 * deleted and disabled webhooks and wrong secrets all throw the same 404.
 */
export async function authenticateWebhook(s: Services, rawId: string, secret: string) {
  const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : null;
  const rows = id === null || id > 2_147_483_647 ? [] : await s.db.select().from(
    cacheRefreshWebhooks,
  ).where(and(eq(cacheRefreshWebhooks.id, id), isNull(cacheRefreshWebhooks.deletedAt)));
  const w = rows[0];
  const presented = await sha256Hex(secret);
  const match = timingSafeEqual(presented, w?.secretHash ?? DUMMY_HASH);
  if (!w || !match || !w.enabled) throw authFailure();
  return w;
}

function refreshTypeOf(api: boolean, assets: boolean): string {
  if (api && assets) return "api+assets";
  if (api) return "api";
  if (assets) return "assets";
  return "none";
}

/** Parses the body best-effort: a non-JSON body just has no event type from it. */
function parseLoose(text: string): unknown {
  try {
    return text.trim() === "" ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** A webhook with API and asset refresh both off: the delivery is recorded, nothing changes. */
async function recordNothingToRefresh(
  s: Services,
  w: CacheRefreshWebhook,
  eventType: string | null,
  received: number,
): Promise<RefreshResult> {
  const at = new Date(received);
  await s.db.insert(webhookEvents).values({
    webhookId: w.id,
    tenantId: w.tenantId,
    status: "synced",
    eventType,
    refreshType: "none",
    message: "Nothing to refresh: API and asset refresh are both off",
    receivedAt: at,
    startedAt: at,
    finishedAt: at,
    durationMs: 0,
  });
  await markWebhook(s, w.id, at, "synced");
  await pruneEvents(s, w.tenantId, w.id);
  return { ok: true, refreshed: false };
}

export async function receiveCacheRefresh(
  s: Services,
  rawId: string,
  secret: string,
  req: Request,
): Promise<RefreshResult> {
  const w = await authenticateWebhook(s, rawId, secret);
  // Counted while streaming (readBodyText): a missing or lying Content-Length cannot get past it.
  const text = await readBodyText(req, MAX_WEBHOOK_BODY_BYTES, s.config.bodyIdleTimeoutMs);
  const eventType = webhookEventType(w.provider as ProviderKind, req.headers, parseLoose(text));
  const entities = w.scope === "entities" && w.refreshApi;
  const notice = entities ? readNotice(w.provider, req.headers, text) : null;
  const refreshType = notice !== null && !("reason" in notice)
    ? (w.refreshAssets ? "entities+assets" : "entities")
    : refreshTypeOf(w.refreshApi, w.refreshAssets);
  const purged = notice === null ? undefined : purgeRecordOf(notice);
  const received = s.clock.now();

  if (refreshType === "none") return await recordNothingToRefresh(s, w, eventType, received);

  const [event] = await s.db.insert(webhookEvents).values({
    webhookId: w.id,
    tenantId: w.tenantId,
    status: "received",
    eventType,
    refreshType,
    receivedAt: new Date(received),
  }).returning({ id: webhookEvents.id });

  const started = s.clock.now();
  const t0 = performance.now();
  try {
    const bumped = notice === null || "reason" in notice;
    const v = await serialised(
      w.tenantId,
      async () => bumped ? await bumpAndSync(s, w) : (await purgeEntities(s, w, notice)).versions,
    );
    // kvSyncedAt only when KV took the new snapshot; else the projector loop completes it.
    const inKv = await isProjected(s, w.tenantId);
    const finished = s.clock.now();
    await s.db.update(webhookEvents).set({
      status: "synced",
      startedAt: new Date(started),
      finishedAt: new Date(finished),
      durationMs: Math.round(performance.now() - t0),
      previousApiCacheVersion: w.refreshApi && bumped ? v.apiCacheVersion - 1 : v.apiCacheVersion,
      nextApiCacheVersion: v.apiCacheVersion,
      kvSyncedAt: inKv ? new Date(finished) : null,
      message: refreshMessage(refreshType, purged) +
        (inKv ? "" : "; the edge snapshot update is left to the projector"),
      purged: purged ?? null,
    }).where(eq(webhookEvents.id, event.id));
    await markWebhook(s, w.id, new Date(finished), "synced");
    await pruneEvents(s, w.tenantId, w.id);
    return purged
      ? { ok: true, refreshed: true, versions: v, purged }
      : { ok: true, refreshed: true, versions: v };
  } catch (err) {
    const finished = s.clock.now();
    const detail = err instanceof Error ? err.message : String(err);
    s.log.error("cache refresh failed", { webhookId: w.id, tenantId: w.tenantId, error: detail });
    await s.db.update(webhookEvents).set({
      status: "failed",
      startedAt: new Date(started),
      finishedAt: new Date(finished),
      durationMs: Math.round(performance.now() - t0),
      message: `Refresh failed: ${detail.slice(0, 300)}`,
    }).where(eq(webhookEvents.id, event.id)).catch(() => {});
    await markWebhook(s, w.id, new Date(finished), "failed").catch(() => {});
    throw new ApiError(500, "refresh_failed", "Cache refresh failed");
  }
}

/** The event row's message: what was refreshed, what purged, or why it fell back. */
function refreshMessage(refreshType: string, p: WebhookPurge | undefined): string {
  if (p === undefined) return `Refreshed ${refreshType}`;
  if (p.fallback !== null) {
    return `Refreshed ${refreshType}: ${p.fallback}, so the version was bumped`;
  }
  const more = p.ids > p.firstIds.length ? ` and ${p.ids - p.firstIds.length} more` : "";
  const types = p.types === null ? "every list" : `lists of ${p.types.join(", ")}`;
  return `Purged ${p.action} of ${p.firstIds.join(", ")}${more}, and ${types}`;
}

async function bumpAndSync(s: Services, w: CacheRefreshWebhook) {
  // One atomic increment: concurrent deliveries each get their own version step.
  const [v] = await changeTenant(s, w.tenantId, (tx) =>
    tx.db.update(tenants).set({
      ...(w.refreshApi ? { apiCacheVersion: sql`${tenants.apiCacheVersion} + 1` } : {}),
      ...(w.refreshAssets ? { assetCacheVersion: sql`${tenants.assetCacheVersion} + 1` } : {}),
      updatedAt: new Date(s.clock.now()),
    }).where(eq(tenants.id, w.tenantId)).returning({
      apiCacheVersion: tenants.apiCacheVersion,
      assetCacheVersion: tenants.assetCacheVersion,
      htmlCacheVersion: tenants.htmlCacheVersion,
      settings: tenants.settings,
    }));
  if (!v) throw new Error("Tenant vanished during refresh");
  // After the projection: a CDN refetching at once then reaches the new version.
  const kinds = [
    ...(w.refreshApi ? ["api" as const] : []),
    ...(w.refreshAssets ? ["assets" as const] : []),
  ];
  if (kinds.length) await purgeAfterBump(s, w.tenantId, { kinds }, v.settings);
  return {
    apiCacheVersion: v.apiCacheVersion,
    assetCacheVersion: v.assetCacheVersion,
    htmlCacheVersion: v.htmlCacheVersion,
  };
}

async function markWebhook(s: Services, id: number, at: Date, status: string): Promise<void> {
  await s.db.update(cacheRefreshWebhooks).set({ lastTriggeredAt: at, lastStatus: status })
    .where(eq(cacheRefreshWebhooks.id, id));
}
