/**
 * Master-admin platform endpoints: app logs, usage stream and diagnostics, cost model, database init and backfills (SPEC "Master-admin endpoints").
 * Paths are relative to /api. Every route checks the master-admin rule first (401 anonymous,
 * 403 others). SPEC names them after a Cloudflare-hosted predecessor; each is its Deno
 * equivalent here (the cost model: docs/decisions.md "Billing").
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { currentPeriod, PERIOD_RE } from "../../lib/usage/query.ts";
import { platformCost } from "../../lib/admin/platform/cost_model.ts";
import { usageStream } from "../../lib/admin/platform/usage_stream.ts";
import { usageDiagnostic } from "../../lib/admin/platform/diagnostic.ts";
import { listLogs, writeTestLog } from "../../lib/admin/platform/logs.ts";
import { initDatabase } from "../../lib/admin/platform/d1_init.ts";
import { resyncEdgeSnapshots } from "../../lib/admin/platform/kv_resync.ts";
import { backfillMembers } from "../../lib/admin/platform/backfill_members.ts";
import {
  databaseInitSchema,
  logsPageSchema,
  membersBackfilledSchema,
  platformCostSchema,
  snapshotsResyncedSchema,
  testLogWrittenSchema,
  usageDiagnosticSchema,
  usageStreamSchema,
} from "../../lib/admin/platform/view_schema.ts";
import { LOG_LEVELS } from "../../lib/log.ts";

const periodQuery = z.object({
  period: str().regex(PERIOD_RE, "must be YYYY-MM").optional(),
}).strict();

const limit = str().regex(/^\d{1,4}$/, "must be an integer from 1 to 200")
  .transform(Number).pipe(z.number().int().min(1).max(200)).optional();
const cursor = str().regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
  .transform(Number).pipe(z.number().int().max(Number.MAX_SAFE_INTEGER)).optional();

const streamQuery = z.object({ limit, cursor }).strict();
const logsQuery = z.object({ limit, cursor, level: z.enum(LOG_LEVELS).optional() }).strict();
const emptyQuery = z.object({}).strict();

const logsTestBody = z.object({
  message: str().trim().min(1).max(200).optional(),
  level: z.enum(LOG_LEVELS).optional(),
}).strict();
const emptyBody = z.object({}).strict();
const resyncBody = z.object({ dryRun: z.boolean().optional() }).strict();

const DEFAULT_LIMIT = 50;

// Long: the route table of the master admin's platform tools: 8 declarations (cost, usage stream
// and diagnostic, logs, one-off migrations), each its access, schemas and summary beside a short
// handler; one block per route, found by its path.
export function adminPlatformRoutes(): Routes {
  const app = new Routes("");

  app.get("/admin/cloudflare-cost", {
    access: access.masterAdmin,
    summary: "Modeled platform cost of one month, cached 10 minutes",
    response: platformCostSchema,
    query: periodQuery,
  }, async (c, { query }) => {
    const s = c.get("services");
    const period = query.period ?? currentPeriod(s.clock.now());
    return c.json(await platformCost(s, period));
  });

  app.get("/admin/usage-stream", {
    access: access.masterAdmin,
    summary: "Sampled request logs of every tenant, newest first",
    response: usageStreamSchema,
    query: streamQuery,
  }, async (c, { query: q }) => {
    return c.json(
      await usageStream(c.get("services"), { limit: q.limit ?? DEFAULT_LIMIT, cursor: q.cursor }),
    );
  });

  app.get("/admin/usage-diagnostic", {
    access: access.masterAdmin,
    summary: "Whether usage flows: aggregator counters, stored rows, KV reachability",
    response: usageDiagnosticSchema,
    query: emptyQuery,
  }, async (c) => {
    return c.json(await usageDiagnostic(c.get("services"), c.get("instance").usageAggregator));
  });

  app.get("/admin/logs", {
    access: access.masterAdmin,
    summary: "This instance's recent log entries, newest first",
    response: logsPageSchema,
    query: logsQuery,
  }, (c, { query: q }) => {
    return c.json(
      listLogs(c.get("services"), {
        limit: q.limit ?? DEFAULT_LIMIT,
        cursor: q.cursor,
        level: q.level,
      }),
    );
  });

  app.post("/admin/logs-test", {
    access: access.masterAdmin,
    summary: "Writes one test entry through the logger",
    response: testLogWrittenSchema,
    body: logsTestBody,
  }, (c, { body, auth }) => {
    return c.json(
      writeTestLog(
        c.get("services"),
        auth.user.id,
        body.level ?? "info",
        body.message ?? "admin log test",
      ),
    );
  });

  app.post("/admin/d1-init", {
    access: access.masterAdmin,
    summary: "Applies pending database migrations",
    response: databaseInitSchema,
    body: emptyBody,
  }, async (c, { auth }) => {
    return c.json(await initDatabase(c.get("services"), auth.user.id));
  });

  app.post("/admin/migrate-kv-to-d1", {
    access: access.masterAdmin,
    summary: "Rebuilds every tenant's edge snapshot in KV from the database",
    response: snapshotsResyncedSchema,
    body: resyncBody,
  }, async (c, { body, auth }) => {
    return c.json(
      await resyncEdgeSnapshots(c.get("services"), auth.user.id, { dryRun: body.dryRun ?? false }),
    );
  });

  app.post("/admin/backfill-members", {
    access: access.masterAdmin,
    summary: "Gives member-less tenants their creator back as owner",
    response: membersBackfilledSchema,
    body: emptyBody,
  }, async (c, { auth }) => {
    return c.json(await backfillMembers(c.get("services"), auth.user.id));
  });

  return app;
}
