/**
 * Response shapes of the cache-refresh webhook views (`webhookView`, `eventView`, the issued
 * secret and URL in lib/webhooks/cache_refresh.ts). Kept next to the builders; response
 * validation in the tests checks they agree (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { WEBHOOK_PROVIDERS } from "../providers/mod.ts";
import { isoTime } from "../base/shapes.ts";
import { WEBHOOK_SCOPES } from "./cache_refresh.ts";

/** What an "entities" delivery purged (lib/db/schema WebhookPurge). */
export const webhookPurgeSchema = z.strictObject({
  scope: z.literal("entities"),
  action: z.string().nullable(),
  ids: z.number().int().describe("Entities purged"),
  firstIds: z.array(z.string()).describe("The first ids purged"),
  types: z.array(z.string()).nullable().describe(
    "Content types whose lists were purged; null: every list",
  ),
  revisions: z.record(z.string(), z.union([z.string(), z.number()])),
  fallback: z.string().nullable().describe("Why the version was bumped instead"),
});

export const webhookViewSchema = z.strictObject({
  id: z.number().int(),
  provider: z.enum(WEBHOOK_PROVIDERS),
  refreshApi: z.boolean(),
  refreshAssets: z.boolean(),
  scope: z.enum(WEBHOOK_SCOPES).describe(
    '"all" bumps the API cache version; "entities" purges the answers holding the announced entities',
  ),
  enabled: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
  lastTriggeredAt: isoTime.nullable(),
  lastStatus: z.string().nullable(),
});

export const webhookEventViewSchema = z.strictObject({
  id: z.number().int(),
  webhookId: z.number().int(),
  status: z.enum(["received", "synced", "failed"]),
  eventType: z.string().nullable(),
  refreshType: z.string().nullable(),
  message: z.string().nullable(),
  previousApiCacheVersion: z.number().int().nullable(),
  nextApiCacheVersion: z.number().int().nullable(),
  receivedAt: isoTime,
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  durationMs: z.number().int().nullable(),
  kvSyncedAt: isoTime.nullable(),
  purged: webhookPurgeSchema.nullable().describe(
    '"entities" scope: what the delivery purged, or why it fell back to the version bump',
  ),
});

/** A created or regenerated webhook: the secret and its URL are shown this once. */
export const issuedWebhookSchema = z.strictObject({
  webhook: webhookViewSchema,
  secret: z.string().describe("Shown once; only its hash is stored"),
  url: z.string().describe("The receiver URL with the secret in its path"),
});
