/** /api/tenants: list, create, slug availability, get/put/delete, api-config, api-token. */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/http/text.ts";
import { parseJsonBody, parseQuery } from "../../lib/http/validate.ts";
import { requireAuth } from "../../lib/http/auth.ts";
import { requireTenant } from "../../lib/tenants/access.ts";
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

export function tenantRoutes(): Routes {
  const app = new Routes("/tenants");

  app.get("/", { access: access.session, summary: "GET /" }, async (c) => {
    const auth = requireAuth(c);
    const s = c.get("services");
    const rows = await listTenantsFor(s, auth.user.id, auth.isAdmin);
    return c.json({
      total: rows.length,
      tenants: rows.map((r) => tenantView(s, r.tenant, r.role)),
    });
  });

  app.post(
    "/",
    { access: access.session, summary: "POST /", body: createTenantSchema, ok: 201 },
    async (c) => {
      const auth = requireAuth(c);
      const s = c.get("services");
      const body = await parseJsonBody(c, createTenantSchema);
      const t = await createTenant(s, auth.user.id, body);
      return c.json({ ok: true, key: t.slug, proxyBase: proxyBase(s, t.slug) }, 201);
    },
  );

  app.get(
    "/slug-availability",
    { access: access.session, summary: "GET /slug-availability" },
    async (c) => {
      requireAuth(c);
      const { slug } = parseQuery(
        c,
        z.object({ slug: str().trim().toLowerCase().min(1).max(100) }),
      );
      const problem = slugProblem(slug);
      if (problem && problem !== "is reserved") throw badRequest(`Invalid slug: ${problem}`);
      return c.json({ slug, available: await isSlugAvailable(c.get("services"), slug) });
    },
  );

  app.get("/:slug", { access: access.tenant("viewer"), summary: "GET /:slug" }, async (c) => {
    const { tenant, role } = await requireTenant(c, "viewer");
    return c.json(tenantView(c.get("services"), tenant, role));
  });

  app.put("/:slug", {
    access: access.tenant("admin"),
    summary: "PUT /:slug",
    body: updateTenantSchema,
  }, async (c) => {
    const { tenant, role, auth } = await requireTenant(c, "admin");
    const body = await parseJsonBody(c, updateTenantSchema);
    const s = c.get("services");
    return c.json(tenantView(s, await updateTenant(s, tenant, auth.user.id, body), role));
  });

  app.delete("/:slug", { access: access.tenant("owner"), summary: "DELETE /:slug" }, async (c) => {
    const { tenant } = await requireTenant(c, "owner");
    await deleteTenant(c.get("services"), tenant);
    return c.json({ ok: true, key: tenant.slug });
  });

  app.put("/:slug/api-config", {
    access: access.tenant("admin"),
    summary: "PUT /:slug/api-config",
    body: apiConfigSchema,
  }, async (c) => {
    const { tenant, auth } = await requireTenant(c, "admin");
    const body = await parseJsonBody(c, apiConfigSchema);
    const s = c.get("services");
    const t = await updateTenant(s, tenant, auth.user.id, body, "tenant.api_config.updated");
    const v = tenantView(s, t).value;
    return c.json({
      ok: true,
      config: {
        apiOrigin: v.apiOrigin,
        apiAuthMode: v.apiAuthMode,
        apiAuthHeader: v.apiAuthHeader,
        cacheTTL: v.cacheTTL,
        apiCacheTTL: v.apiCacheTTL,
        previewParam: v.previewParam,
        hasToken: v.hasToken,
      },
    });
  });

  app.put("/:slug/api-token", {
    access: access.tenant("admin"),
    summary: "PUT /:slug/api-token",
    body: apiTokenSchema,
  }, async (c) => {
    const { tenant, auth } = await requireTenant(c, "admin");
    const body = await parseJsonBody(c, apiTokenSchema);
    return c.json(await setApiToken(c.get("services"), tenant, auth.user.id, body.token));
  });

  return app;
}
