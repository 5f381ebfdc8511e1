/**
 * Master-admin operations: overview, bandwidth, log pruning, user admin (SPEC "Master-admin endpoints").
 * Paths are relative to /api; mounted before the generic /tenants/:slug routes. Every
 * route checks the master-admin rule first (401 anonymous, 403 others).
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { currentPeriod, PERIOD_RE } from "../../lib/usage/query.ts";
import { REQUEST_LOG_RETENTION_DAYS } from "../../lib/usage/aggregator.ts";
import { adminOverview } from "../../lib/admin/overview.ts";
import { bandwidthDaily, userDaily } from "../../lib/admin/daily.ts";
import { isUtcDay, resolveDayRange } from "../../lib/usage/days.ts";
import { pruneRequestLogs } from "../../lib/admin/ops.ts";
import { updateUser } from "../../lib/admin/users.ts";
import { startPasswordReset } from "../../lib/admin/password_reset.ts";
import {
  adminBandwidthSchema,
  adminOverviewSchema,
  adminUserViewSchema,
  logsPrunedSchema,
  passwordResetStartedSchema,
  userDailySchema,
} from "../../lib/admin/view_schema.ts";

const periodQuery = z.object({
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
}).strict();

const day = str().refine(isUtcDay, "must be a date YYYY-MM-DD");
const bandwidthQuery = z.object({
  from: day.optional(),
  to: day.optional(),
  tenant: str().min(1).max(100).optional(),
}).strict();

const pruneBody = z.object({
  retentionDays: z.number().int().min(1).max(3650).optional(),
}).strict();

const userPatch = z.object({
  name: str().trim().min(1).max(120).nullable().optional(),
  email: z.email().max(254).optional(),
}).strict().refine((p) => p.name !== undefined || p.email !== undefined, {
  message: "must set at least one of name, email",
});

const resetBody = z.object({}).strict();

export function adminOpsRoutes(): Routes {
  const app = new Routes("");

  app.get("/admin/overview", {
    access: access.masterAdmin,
    summary: "Platform-wide users, tenants, traffic and AI tokens for one month",
    response: adminOverviewSchema,
    query: periodQuery,
  }, async (c, { query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    return c.json(await adminOverview(s, period));
  });

  app.get("/admin/bandwidth-daily", {
    access: access.masterAdmin,
    summary: "Bytes and requests per day across all tenants or one",
    response: adminBandwidthSchema,
    errors: [404],
    query: bandwidthQuery,
  }, async (c, { query: q }) => {
    const s = c.get("services");
    const { from, to } = resolveDayRange(s.clock.now(), q.from, q.to);
    return c.json(await bandwidthDaily(s, { from, to, tenant: q.tenant }));
  });

  app.post("/admin/prune-logs", {
    access: access.masterAdmin,
    summary: "Deletes request logs older than the retention now",
    response: logsPrunedSchema,
    body: pruneBody,
  }, async (c, { body, auth }) => {
    return c.json(
      await pruneRequestLogs(
        c.get("services"),
        auth.user.id,
        body.retentionDays ?? REQUEST_LOG_RETENTION_DAYS,
      ),
    );
  });

  app.patch("/admin/users/:userId", {
    access: access.masterAdmin,
    summary: "Edits a user's name or email",
    response: adminUserViewSchema,
    errors: [404, 409],
    body: userPatch,
  }, async (c, { body, auth }) => {
    return c.json(await updateUser(c.get("services"), auth.user.id, c.req.param("userId"), body));
  });

  app.get("/admin/users/:userId/daily", {
    access: access.masterAdmin,
    summary: "A user's traffic per day of a month, over the tenants they belong to",
    response: userDailySchema,
    errors: [404],
    query: periodQuery,
  }, async (c, { query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    return c.json(await userDaily(s, c.req.param("userId"), period));
  });

  app.post("/admin/users/:userId/reset-password", {
    access: access.masterAdmin,
    summary: "Mails the user a password reset link and ends their sessions",
    response: passwordResetStartedSchema,
    errors: [404],
    body: resetBody,
  }, async (c, { auth }) => {
    return c.json(
      await startPasswordReset(c.get("services"), auth.user.id, c.req.param("userId")),
    );
  });

  return app;
}
