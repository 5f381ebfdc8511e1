/**
 * Custom domains (SPEC "Tenants": domains, domains/verify). Reads viewer+, writes
 * admin+ (docs/decisions.md). A domain is named by `hostname` or `id`, in the JSON
 * body or the query string. Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { INT4_MAX } from "../../lib/http/validate.ts";
import { hostnameSchema } from "../../lib/tenants/schema.ts";
import {
  addDomain,
  deleteDomain,
  type DomainRef,
  domainView,
  listDomains,
} from "../../lib/domains/service.ts";
import { verifyDomain } from "../../lib/domains/verify.ts";
import { badRequest } from "../../lib/errors.ts";
import { domainViewSchema } from "../../lib/domains/view_schema.ts";

const addSchema = z.object({ hostname: hostnameSchema }).strict();
/**
 * A domain id: a number, or its digits as a string - the query can only carry a string, and the
 * body takes the same form (decisions.md "Custom domains"). Within int4, the column's type: a larger
 * id made PostgreSQL fail the query (500).
 */
const domainId = z.union([
  z.number().int().positive(),
  str().regex(/^[1-9]\d{0,9}$/, "must be a positive integer").transform(Number),
]).pipe(z.number().max(INT4_MAX, "must be a positive integer"));

const refSchema = z.object({
  hostname: hostnameSchema.optional(),
  id: domainId.optional(),
});
type RefInput = z.output<typeof refSchema>;

/** A route naming one domain: by `hostname` or `id`, in the JSON body or the query string. */
const byRef = { body: refSchema, bodyOptional: true, query: refSchema } as const;

/** The domain named in the body or, failing that, the query. */
function domainRef(body: RefInput, query: RefInput): DomainRef {
  const ref = {
    id: body.id ?? query.id,
    hostname: body.hostname ?? query.hostname,
  };
  if (ref.id === undefined && ref.hostname === undefined) {
    throw badRequest("Invalid hostname: hostname or id is required");
  }
  return ref;
}

export function domainsRoutes(): Routes {
  const app = new Routes("");

  app.get("/tenants/:slug/domains", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's custom domains with their verification status",
    response: z.strictObject({ domains: z.array(domainViewSchema) }),
  }, async (c, { tenant }) => {
    const s = c.get("services");
    const rows = await listDomains(s, tenant.id);
    return c.json({ domains: rows.map((d) => domainView(s, d)) });
  });

  app.post("/tenants/:slug/domains", {
    access: access.tenant("admin"),
    summary: "Adds a custom domain (pending until its DNS records verify)",
    body: addSchema,
    ok: 201,
    response: domainViewSchema,
    errors: [409],
  }, async (c, { tenant, auth, body }) => {
    const s = c.get("services");
    const d = await addDomain(s, tenant, auth.user.id, body.hostname);
    return c.json(domainView(s, d), 201);
  });

  app.delete("/tenants/:slug/domains", {
    access: access.tenant("admin"),
    summary: "Removes a custom domain, named by hostname or id in the body or query",
    ...byRef,
    response: z.strictObject({ ok: z.literal(true), id: z.number().int(), hostname: str() }),
  }, async (c, { tenant, auth, body, query }) => {
    const ref = domainRef(body, query);
    const d = await deleteDomain(c.get("services"), tenant, auth.user.id, ref);
    return c.json({ ok: true, id: d.id, hostname: d.hostname });
  });

  app.post("/tenants/:slug/domains/verify", {
    access: access.tenant("admin"),
    summary: "Checks a custom domain's DNS records now and answers its new status",
    ...byRef,
    response: domainViewSchema,
  }, async (c, { tenant, auth, body, query }) => {
    const s = c.get("services");
    const d = await verifyDomain(s, tenant, auth.user.id, domainRef(body, query));
    return c.json(domainView(s, d));
  });

  return app;
}
