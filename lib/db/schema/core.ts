/** Drizzle table definitions mirroring migrations/0001_core.sql. */
import {
  bigint,
  bigserial,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/**
 * What a cache-refresh delivery in "entities" scope purged: the entities and content types
 * (counted, the first ones named), the action, or the reason it fell back to a version bump.
 */
export type WebhookPurge = {
  scope: "entities";
  action: string | null;
  ids: number;
  firstIds: string[];
  types: string[] | null;
  revisions: Record<string, string | number>;
  fallback: string | null;
};

/** timestamptz read as a Date; shared by every schema file. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  name: text("name"),
  blocked: boolean("blocked").notNull().default(false),
  blockedReason: text("blocked_reason"),
  /** Granted by `cli admin grant`; ADMIN_EMAILS grants it too (lib/users/mod.ts). */
  masterAdmin: boolean("master_admin").notNull().default(false),
  /** When the owner proved the address (mailed link, provider, reset); null: unverified. */
  emailVerifiedAt: ts("email_verified_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const apiTokens = pgTable("api_tokens", {
  id: serial("id").primaryKey(),
  userId: text("user_id").notNull(),
  name: text("name").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: ts("created_at").notNull().defaultNow(),
  lastUsedAt: ts("last_used_at"),
  revokedAt: ts("revoked_at"),
  /** read, write, admin (lib/auth/token_scopes.ts). */
  scopes: text("scopes").array().$type<TokenScope[]>().notNull().default([
    "read",
    "write",
    "admin",
  ]),
  expiresAt: ts("expires_at"),
});

export type TenantSettings = {
  /** Query parameter that skips the API cache for draft content (default `cachely-preview`). */
  previewParam?: string;
  /** Serve the website origin on the preview host and active custom domains. */
  siteProxy?: boolean;
  /** Send CDN-Cache-Control and Cache-Tag so a CDN in front answers hits (docs/decisions.md). */
  cdnOffload?: boolean;
  maxFieldsPerResponse?: number;
  maxCharsPerField?: number;
  monthlyTokenCap?: number | null;
  dailyTokenCap?: number | null;
  [key: string]: unknown;
};

export const tenants = pgTable("tenants", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  cms: text("cms").notNull(),
  cloudName: text("cloud_name"),
  websiteDomain: text("website_domain"),
  websiteOrigin: text("website_origin"),
  cacheTtl: integer("cache_ttl").notNull().default(60),
  apiOrigin: text("api_origin"),
  apiAuthMode: text("api_auth_mode").notNull().default("none"),
  apiAuthHeader: text("api_auth_header"),
  apiTokenEnc: text("api_token_enc"),
  apiTokenUpdatedAt: ts("api_token_updated_at"),
  settings: jsonb("settings").$type<TenantSettings>().notNull().default({}),
  apiCacheVersion: integer("api_cache_version").notNull().default(1),
  assetCacheVersion: integer("asset_cache_version").notNull().default(1),
  htmlCacheVersion: integer("html_cache_version").notNull().default(1),
  publishSecretEnc: text("publish_secret_enc"),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const tenantMembers = pgTable("tenant_members", {
  tenantId: integer("tenant_id").notNull(),
  userId: text("user_id").notNull(),
  role: text("role").$type<Role>().notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.userId] })]);

export type Role = "viewer" | "editor" | "admin" | "owner";

/** What a personal access token may do (lib/auth/token_scopes.ts). */
export type TokenScope = "read" | "write" | "admin";

export const invites = pgTable("invites", {
  id: serial("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  email: text("email").notNull(),
  role: text("role").$type<Role>().notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  invitedBy: text("invited_by"),
  expiresAt: ts("expires_at").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  revokedAt: ts("revoked_at"),
  acceptedAt: ts("accepted_at"),
  acceptedBy: text("accepted_by"),
});

export const auditEvents = pgTable("audit_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  actorUserId: text("actor_user_id"),
  action: text("action").notNull(),
  target: text("target"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const domains = pgTable("domains", {
  id: serial("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  hostname: text("hostname").notNull().unique(),
  status: text("status").$type<"pending" | "active" | "failed" | "suspended">().notNull().default(
    "pending",
  ),
  verificationToken: text("verification_token").notNull(),
  failureReason: text("failure_reason"),
  verifiedAt: ts("verified_at"),
  lastCheckedAt: ts("last_checked_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const cacheRefreshWebhooks = pgTable("cache_refresh_webhooks", {
  id: serial("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  provider: text("provider").notNull(),
  secretHash: text("secret_hash").notNull(),
  refreshApi: boolean("refresh_api").notNull().default(true),
  refreshAssets: boolean("refresh_assets").notNull().default(false),
  /** "all" bumps the API version; "entities" purges the announced entities' answers. */
  scope: text("scope").$type<"all" | "entities">().notNull().default("all"),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  lastTriggeredAt: ts("last_triggered_at"),
  lastStatus: text("last_status"),
  deletedAt: ts("deleted_at"),
});

export const webhookEvents = pgTable("webhook_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  webhookId: integer("webhook_id").notNull(),
  tenantId: integer("tenant_id").notNull(),
  status: text("status").$type<"received" | "synced" | "failed">().notNull(),
  eventType: text("event_type"),
  refreshType: text("refresh_type"),
  message: text("message"),
  previousApiCacheVersion: integer("previous_api_cache_version"),
  nextApiCacheVersion: integer("next_api_cache_version"),
  receivedAt: ts("received_at").notNull().defaultNow(),
  startedAt: ts("started_at"),
  finishedAt: ts("finished_at"),
  durationMs: integer("duration_ms"),
  kvSyncedAt: ts("kv_synced_at"),
  /** What an "entities" delivery purged, or why it fell back (lib/webhooks/entity_purge.ts). */
  purged: jsonb("purged").$type<WebhookPurge>(),
});

export const usageDaily = pgTable("usage_daily", {
  tenantId: integer("tenant_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  ...usageCounters(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.day] })]);

/** usage_daily's counters per UTC hour, kept 7 days (lib/usage/pg_target.ts prunes). */
export const usageHourly = pgTable("usage_hourly", {
  tenantId: integer("tenant_id").notNull(),
  hour: ts("hour").notNull(),
  ...usageCounters(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.hour] })]);

/** The counters of usage_daily and usage_hourly alike. */
function usageCounters() {
  const n = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);
  return {
    requests: n("requests"),
    bytes: n("bytes"),
    hits: n("hits"),
    misses: n("misses"),
    stale: n("stale"),
    bypass: n("bypass"),
    errors: n("errors"),
    /** Bots refused on the asset path: not in requests, no bytes. */
    blocked: n("blocked"),
    /** Responses per status class. */
    status1xx: n("status_1xx"),
    status2xx: n("status_2xx"),
    status3xx: n("status_3xx"),
    status4xx: n("status_4xx"),
    status5xx: n("status_5xx"),
    /** Upstream requests this tenant's traffic made (coalesced misses count once). */
    originRequests: n("origin_requests"),
    originBytes: n("origin_bytes"),
    /** Latency sketches: counts per lib/usage/latency_sketch.ts bucket (migration 0011). */
    edgeLatency: bigint("edge_latency", { mode: "number" }).array().notNull().default([]),
    originLatency: bigint("origin_latency", { mode: "number" }).array().notNull().default([]),
  };
}

export const requestLogs = pgTable("request_logs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  ts: ts("ts").notNull().defaultNow(),
  method: text("method").notNull(),
  path: text("path").notNull(),
  status: integer("status").notNull(),
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  cache: text("cache"),
  durationMs: integer("duration_ms"),
  kind: text("kind"),
  /** The origin's status when the request reached it (migration 0031). */
  originStatus: integer("origin_status"),
  experimentId: integer("experiment_id"),
  variantId: integer("variant_id"),
});

export const exposureCounts = pgTable("exposure_counts", {
  tenantId: integer("tenant_id").notNull(),
  experimentId: integer("experiment_id").notNull(),
  variantId: integer("variant_id").notNull(),
  variantKey: text("variant_key").notNull(),
  exposures: bigint("exposures", { mode: "number" }).notNull().default(0),
  lastSeenAt: ts("last_seen_at"),
  errors: bigint("errors", { mode: "number" }).notNull().default(0),
  latencyBuckets: bigint("latency_buckets", { mode: "number" }).array().notNull().default([]),
}, (t) => [primaryKey({ columns: [t.experimentId, t.variantId, t.variantKey] })]);
