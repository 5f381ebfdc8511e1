/**
 * Response shapes of the master-admin user and operations endpoints (routes/api/admin.ts,
 * admin_ops.ts), built by users.ts, user_search.ts, overview.ts, daily.ts, ops.ts and
 * password_reset.ts in this folder. The builders are typed from these schemas, so a field
 * added on one side only fails the type check; the test harness also validates every
 * answer against them (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { count, isoTime } from "../base/shapes.ts";
import { PERIOD_RE } from "../usage/query.ts";
import { ROLES } from "../base/roles.ts";
import { PLAN_CODES } from "../billing/plans.ts";
import { bandwidthSeriesSchema, usageTotalsSchema } from "../usage/view_schema.ts";

const period = z.string().regex(PERIOD_RE);

/** GET /api/admin/users/{userId}, and PATCH's answer. Never the password hash. */
export const adminUserViewSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isAdmin: z.boolean(),
  blocked: z.boolean(),
  blockedReason: z.string().nullable(),
  tenants: z.array(z.strictObject({ slug: z.string(), role: z.enum(ROLES) })),
  activeTokens: count,
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type AdminUserView = z.infer<typeof adminUserViewSchema>;

/** GET /api/admin/users: newest accounts first, with their plan. */
export const userSearchSchema = z.strictObject({
  q: z.string(),
  users: z.array(z.strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    blocked: z.boolean(),
    isAdmin: z.boolean(),
    plan: z.enum(PLAN_CODES),
    adminOverride: z.boolean(),
    createdAt: isoTime,
  })),
  hasMore: z.boolean(),
});
export type UserSearch = z.infer<typeof userSearchSchema>;

/** POST /api/admin/users/{userId}/block. */
export const userBlockedSchema = z.strictObject({
  ok: z.literal(true),
  userId: z.string(),
  blocked: z.boolean(),
  blockedReason: z.string().nullable(),
  sessionsEnded: count,
});
export type UserBlocked = z.infer<typeof userBlockedSchema>;

/** POST /api/admin/users/{userId}/reset-password: the token goes out only in the mail. */
export const passwordResetStartedSchema = z.strictObject({
  ok: z.literal(true),
  userId: z.string(),
  expiresAt: isoTime,
  emailSent: z.boolean(),
  sessionsEnded: count,
});
export type PasswordResetStarted = z.infer<typeof passwordResetStartedSchema>;

/** GET /api/admin/overview: platform-wide figures for one UTC month. */
export const adminOverviewSchema = z.strictObject({
  period,
  users: z.strictObject({ total: count, blocked: count, admins: count }),
  tenants: z.strictObject({ total: count, createdInPeriod: count }),
  usage: usageTotalsSchema.omit({
    blocked: true,
    originRequests: true,
    originBytes: true,
    statusClasses: true,
  }),
  ai: z.strictObject({ inputTokens: count, outputTokens: count, modelCalls: count }),
  topTenants: z.array(z.strictObject({ slug: z.string(), requests: count, bytes: count })),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

/** GET /api/admin/bandwidth-daily: all tenants' series, or one tenant's (`tenant` its slug). */
export const adminBandwidthSchema = bandwidthSeriesSchema.extend({
  tenant: z.string().nullable(),
});
export type AdminBandwidth = z.infer<typeof adminBandwidthSchema>;

/** GET /api/admin/users/{userId}/daily: one zero-filled point per day of the month. */
export const userDailySchema = z.strictObject({
  userId: z.string(),
  period,
  tenants: z.array(z.string()),
  days: z.array(z.strictObject({
    day: z.iso.date(),
    requests: count,
    bytes: count,
    hits: count,
    misses: count,
    errors: count,
  })),
});
export type UserDaily = z.infer<typeof userDailySchema>;

/** POST /api/admin/prune-logs. */
export const logsPrunedSchema = z.strictObject({
  ok: z.literal(true),
  deleted: count,
  retentionDays: z.number().int().positive(),
  before: isoTime,
});
export type LogsPruned = z.infer<typeof logsPrunedSchema>;
