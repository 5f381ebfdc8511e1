/**
 * Cache control (SPEC "Tenants": refresh-cache, edge-config; "Webhooks, members and
 * invites": webhook, webhook-secret). Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { findTenantBySlug } from "../../lib/tenants/service.ts";
import { bumpCacheVersions, REFRESH_TYPES } from "../../lib/cache/versions.ts";
import { edgeConfigResultSchema, rebuildEdgeConfig } from "../../lib/cache/edge_config.ts";
import { cacheVersionsSchema } from "../../lib/cache/versions_schema.ts";
import {
  ensurePublishSecret,
  publishSecretMatches,
  rotatePublishSecret,
} from "../../lib/cache/publish_secret.ts";
import { ApiError, notFound, unauthorized } from "../../lib/errors.ts";
import { explainQuerySchema, explainResultSchema, explainUrl } from "../../lib/cache/explain.ts";
import {
  purgeBodySchema,
  purgeByTarget,
  purgeResultSchema,
  PURGES_PER_MINUTE,
} from "../../lib/cache/purge.ts";

const refreshSchema = z.object({ type: z.enum(REFRESH_TYPES) }).strict();
const secretSchema = z.strictObject({
  secret: str().describe("The publish webhook's query secret"),
});

export function cacheControlRoutes(): Routes {
  const app = new Routes("");

  app.post("/tenants/:slug/refresh-cache", {
    access: access.tenant("editor"),
    summary:
      "Bumps cache versions (api, assets, html or all) so older cached entries are unreachable",
    body: refreshSchema,
    response: z.strictObject({ ok: z.literal(true), versions: cacheVersionsSchema }),
  }, async (c, { tenant, auth, body }) => {
    const versions = await bumpCacheVersions(c.get("services"), tenant, body.type, {
      actorUserId: auth.user.id,
      action: "cache.refreshed",
    });
    return c.json({ ok: true, versions });
  });

  app.post("/tenants/:slug/purge", {
    access: access.tenant("editor"),
    summary:
      `Purges cached objects by tenant-host URL or path, path prefix, or Cache-Tag (the tenant's own tags only); ${PURGES_PER_MINUTE} per minute per tenant`,
    body: purgeBodySchema,
    errors: [429],
    response: purgeResultSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await purgeByTarget(c.get("services"), tenant, body, auth.user.id));
  });

  explainRoute(app);

  app.post("/tenants/:slug/edge-config", {
    access: access.tenant("editor"),
    summary: "Rewrites the tenant's edge configuration from stored state and reads it back",
    response: edgeConfigResultSchema,
  }, async (c, { tenant }) => {
    return c.json(await rebuildEdgeConfig(c.get("services"), tenant));
  });

  // Publish webhook: no session; the query secret is the credential (SPEC "Authentication").
  app.post("/tenants/:slug/webhook", {
    access: access.webhookSecret("query"),
    summary: "Publish webhook: bumps the HTML cache version; the query secret is the credential",
    response: z.strictObject({ ok: z.literal(true), htmlCacheVersion: z.number().int() }),
  }, async (c) => {
    const s = c.get("services");
    const tenant = await findTenantBySlug(s, (c.req.param("slug") ?? "").toLowerCase());
    if (!tenant) throw notFound("Project");
    if (!tenant.publishSecretEnc) {
      throw new ApiError(403, "webhook_not_configured", "Publish webhook is not configured");
    }
    const secret = c.req.query("secret");
    if (!secret) throw unauthorized("Missing webhook secret");
    if (secret.length > 200 || !(await publishSecretMatches(s, tenant, secret))) {
      throw unauthorized("Invalid webhook secret");
    }
    const versions = await bumpCacheVersions(s, tenant, "html", {
      actorUserId: null,
      action: "cache.publish_webhook",
    });
    return c.json({ ok: true, htmlCacheVersion: versions.htmlCacheVersion });
  });

  app.post("/tenants/:slug/webhook-secret", {
    access: access.tenant("editor"),
    summary: "Answers the publish webhook secret, creating it on first use",
    response: secretSchema,
  }, async (c, { tenant, auth }) => {
    return c.json({ secret: await ensurePublishSecret(c.get("services"), tenant, auth.user.id) });
  });

  app.put("/tenants/:slug/webhook-secret", {
    access: access.tenant("admin"),
    summary: "Replaces the publish webhook secret (the old one stops working)",
    response: secretSchema,
  }, async (c, { tenant, auth }) => {
    return c.json({ secret: await rotatePublishSecret(c.get("services"), tenant, auth.user.id) });
  });

  return app;
}

/** "Why isn't this URL cached?" (lib/cache/explain.ts): read-only, viewer+. */
function explainRoute(app: Routes): void {
  app.get("/tenants/:slug/cache/explain", {
    access: access.tenant("viewer"),
    summary:
      "Why isn't this URL cached? Its cache key, eligibility, the copy this instance holds, the last origin answer (why it was not stored) and the last purge that matched; never fetches the URL",
    query: explainQuerySchema,
    errors: [503],
    response: explainResultSchema,
  }, async (c, { tenant, query }) => {
    return c.json(
      await explainUrl(c.get("services"), c.get("instance").edgeExplain, tenant, query),
    );
  });
}
