/** /api/tenants: list, create, slug availability, get/put/delete, api-config, api-token. */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import {
  apiConfigSchema,
  apiTokenSchema,
  createTenantSchema,
  updateTenantSchema,
} from "../../lib/tenants/schema.ts";
import {
  createTenant,
  deleteTenant,
  isSlugAvailable,
  listTenantsFor,
  proxyBase,
  setApiToken,
  tenantView,
  updateTenant,
} from "../../lib/tenants/service.ts";
import { slugProblem } from "../../lib/tenants/slug.ts";
import { badRequest } from "../../lib/errors.ts";
import { okKeySchema, tenantViewSchema } from "../../lib/tenants/view_schema.ts";

const tenantListSchema = z.strictObject({
  total: z.number().int(),
  tenants: z.array(tenantViewSchema),
});
const createdSchema = z.strictObject({
  ok: z.literal(true),
  key: str(),
  proxyBase: str(),
});
const slugAvailabilitySchema = z.strictObject({ slug: str(), available: z.boolean() });
const apiConfigResponseSchema = z.strictObject({
  ok: z.literal(true),
  config: tenantViewSchema.shape.value.pick({
    apiOrigin: true,
    apiAuthMode: true,
    apiAuthHeader: true,
    cacheTTL: true,
    apiCacheTTL: true,
    previewParam: true,
    hasToken: true,
  }),
});
const tokenSavedSchema = z.strictObject({
  ok: z.literal(true),
  updatedAt: str().describe("ISO 8601 time"),
});

const slugQuerySchema = z.object({ slug: str().trim().toLowerCase().min(1).max(100) });

// Long: the route table of /tenants: 8 declarations (list, create, slug check, read, update,
// delete, API config, API token), each its access, schemas and summary beside a short handler
// calling lib/tenants; one block per route, found by its path.
export function tenantRoutes(): Routes {
  const app = new Routes("/tenants");

  app.get("/", {
    access: access.session,
    summary: "Lists the tenants the caller is a member of (all tenants for a master admin)",
    response: tenantListSchema,
  }, async (c, { auth }) => {
    const s = c.get("services");
    const rows = await listTenantsFor(s, auth.user.id, auth.isAdmin);
    return c.json({
      total: rows.length,
      tenants: rows.map((r) => tenantView(s, r.tenant, r.role)),
    });
  });

  app.post(
    "/",
    {
      access: access.session,
      summary: "Creates a tenant owned by the caller",
      body: createTenantSchema,
      ok: 201,
      response: createdSchema,
      errors: [403, 409],
    },
    async (c, { auth, body }) => {
      const s = c.get("services");
      const t = await createTenant(s, auth.user.id, body);
      return c.json({ ok: true, key: t.slug, proxyBase: proxyBase(s, t.slug) }, 201);
    },
  );

  app.get(
    "/slug-availability",
    {
      access: access.session,
      summary: "Tells whether a slug is free to create a tenant with",
      query: slugQuerySchema,
      response: slugAvailabilitySchema,
    },
    async (c, { query: { slug } }) => {
      const problem = slugProblem(slug);
      if (problem && problem !== "is reserved") throw badRequest(`Invalid slug: ${problem}`);
      return c.json({ slug, available: await isSlugAvailable(c.get("services"), slug) });
    },
  );

  app.get("/:slug", {
    access: access.tenant("viewer"),
    summary: "Reads a tenant's settings and the caller's role",
    response: tenantViewSchema,
  }, (c, { tenant, role }) => {
    return c.json(tenantView(c.get("services"), tenant, role));
  });

  app.put("/:slug", {
    access: access.tenant("admin"),
    summary: "Changes a tenant's settings (only the fields given)",
    body: updateTenantSchema,
    response: tenantViewSchema,
  }, async (c, { tenant, role, auth, body }) => {
    const s = c.get("services");
    return c.json(tenantView(s, await updateTenant(s, tenant, auth.user.id, body), role));
  });

  app.delete("/:slug", {
    access: access.tenant("owner"),
    summary: "Deletes a tenant with its domains, members and cached content",
    response: okKeySchema,
  }, async (c, { tenant }) => {
    await deleteTenant(c.get("services"), tenant);
    return c.json({ ok: true, key: tenant.slug });
  });

  app.put("/:slug/api-config", {
    access: access.tenant("admin"),
    summary: "Changes the API proxy settings (origin, auth mode, TTL, preview parameter)",
    body: apiConfigSchema,
    response: apiConfigResponseSchema,
  }, async (c, { tenant, auth, body: { cacheTTL, ...rest } }) => {
    const s = c.get("services");
    // An API context: cacheTTL is the API TTL here whatever the kind.
    const input = { ...rest, apiCacheTTL: rest.apiCacheTTL ?? cacheTTL };
    const t = await updateTenant(s, tenant, auth.user.id, input, "tenant.api_config.updated");
    const v = tenantView(s, t).value;
    return c.json({
      ok: true,
      config: {
        apiOrigin: v.apiOrigin,
        apiAuthMode: v.apiAuthMode,
        apiAuthHeader: v.apiAuthHeader,
        cacheTTL: v.apiCacheTTL,
        apiCacheTTL: v.apiCacheTTL,
        previewParam: v.previewParam,
        hasToken: v.hasToken,
      },
    });
  });

  app.put("/:slug/api-token", {
    access: access.tenant("admin"),
    summary: "Replaces the upstream API token (write-only, stored encrypted)",
    body: apiTokenSchema,
    response: tokenSavedSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await setApiToken(c.get("services"), tenant, auth.user.id, body.token));
  });

  return app;
}
