/**
 * Cache-refresh webhooks (management, SPEC "Webhooks, members and invites") and their
 * public receiver. Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { intParam } from "../../lib/http/validate.ts";
import { WEBHOOK_PROVIDERS } from "../../lib/providers/mod.ts";
import {
  createWebhook,
  deleteWebhook,
  eventView,
  listEvents,
  listWebhooks,
  regenerateWebhook,
  updateWebhook,
  WEBHOOK_SCOPES,
  webhookView,
} from "../../lib/webhooks/cache_refresh.ts";
import { receiveCacheRefresh } from "../../lib/webhooks/receiver.ts";
import {
  issuedWebhookSchema,
  webhookEventViewSchema,
  webhookPurgeSchema,
  webhookViewSchema,
} from "../../lib/webhooks/view_schema.ts";
import { cacheVersionsSchema } from "../../lib/cache/versions_schema.ts";
import { okSchema } from "../../lib/base/shapes.ts";

const scopeField = z.enum(WEBHOOK_SCOPES).optional().describe(
  '"all" (default) bumps the API cache version; "entities" purges only the answers holding the announced entities',
);

const createSchema = z.object({
  provider: z.enum(WEBHOOK_PROVIDERS),
  refreshAssets: z.boolean().optional(),
  scope: scopeField,
}).strict();

/** Not in SPEC: turning a webhook off without losing its URL (decisions.md). */
const patchSchema = z.object({
  enabled: z.boolean().optional(),
  refreshAssets: z.boolean().optional(),
  scope: scopeField,
}).strict().refine(
  (b) => b.enabled !== undefined || b.refreshAssets !== undefined || b.scope !== undefined,
  { path: ["enabled"], message: "set enabled, refreshAssets or scope" },
);

const BASE = "/tenants/:slug/cache-refresh-webhooks";

/**
 * Management routes: list and events editor+, create/regenerate/delete admin+ (SPEC), and
 * enable/disable admin+ like the other changes to a webhook.
 */
export function cacheRefreshWebhooksRoutes(): Routes {
  const app = new Routes("");

  app.get(BASE, {
    access: access.tenant("editor"),
    summary: "Lists the tenant's cache-refresh webhooks (without their secrets)",
    response: z.strictObject({ webhooks: z.array(webhookViewSchema) }),
  }, async (c, { tenant }) => {
    const rows = await listWebhooks(c.get("services"), tenant.id);
    return c.json({ webhooks: rows.map(webhookView) });
  });

  app.post(BASE, {
    access: access.tenant("admin"),
    summary: "Creates a cache-refresh webhook and answers its secret URL (shown once)",
    body: createSchema,
    ok: 201,
    response: issuedWebhookSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await createWebhook(c.get("services"), tenant.id, auth.user.id, body), 201);
  });

  app.get(`${BASE}/:id/events`, {
    access: access.tenant("editor"),
    summary: "Lists a webhook's received events, newest first",
    response: z.strictObject({ events: z.array(webhookEventViewSchema) }),
  }, async (c, { tenant }) => {
    const rows = await listEvents(c.get("services"), tenant.id, intParam(c, "id"));
    return c.json({ events: rows.map(eventView) });
  });

  app.post(`${BASE}/:id/regenerate`, {
    access: access.tenant("admin"),
    summary: "Replaces a webhook's secret and answers the new URL (shown once)",
    response: issuedWebhookSchema,
  }, async (c, { tenant, auth }) => {
    const id = intParam(c, "id");
    return c.json(await regenerateWebhook(c.get("services"), tenant.id, id, auth.user.id));
  });

  app.patch(`${BASE}/:id`, {
    access: access.tenant("admin"),
    summary: "Turns a webhook off or on, or changes refreshAssets or scope; the URL stays",
    body: patchSchema,
    response: z.strictObject({ webhook: webhookViewSchema }),
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    const w = await updateWebhook(c.get("services"), tenant.id, id, auth.user.id, body);
    return c.json({ webhook: webhookView(w) });
  });

  app.delete(
    `${BASE}/:id`,
    {
      access: access.tenant("admin"),
      summary: "Deletes a webhook (its URL stops working; its events stay listable)",
      response: okSchema,
    },
    async (c, { tenant, auth }) => {
      await deleteWebhook(c.get("services"), tenant.id, intParam(c, "id"), auth.user.id);
      return c.json({ ok: true });
    },
  );

  return app;
}

/**
 * The public receiver. Mounted ahead of the session middleware (routes/api/mod.ts): it
 * authenticates by the URL secret alone, and a CMS that sends its own Authorization
 * header must still get a 404-or-success answer, never the 401 of a failed sign-in check.
 */
export function cacheRefreshReceiverRoutes(): Routes {
  const app = new Routes("");
  app.post("/webhooks/cache-refresh/:id/:secret", {
    access: access.webhookSecret("path"),
    summary: "Receiver a CMS calls on publish: bumps the webhook's cache versions",
    response: z.union([
      z.strictObject({
        ok: z.literal(true),
        refreshed: z.literal(true),
        versions: cacheVersionsSchema,
        purged: webhookPurgeSchema.optional(),
      }),
      z.strictObject({ ok: z.literal(true), refreshed: z.literal(false) })
        .describe("Nothing to refresh: API and asset refresh are both off"),
    ]),
    errors: [413],
  }, async (c) => {
    const result = await receiveCacheRefresh(
      c.get("services"),
      c.req.param("id"),
      c.req.param("secret"),
      c.req.raw,
    );
    return c.json(result);
  });
  return app;
}
