/** Request schemas for tenant create and update (SPEC "Tenants"; field list in docs/decisions.md). */
import { z } from "zod";
import { str } from "../http/text.ts";
import { AUTH_MODES, CMS_KINDS } from "../providers/mod.ts";
import { isReservedHeaderName } from "../http/header_names.ts";

export const hostnameSchema = str().trim().toLowerCase().max(253).regex(
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
  "must be a hostname such as www.example.com",
);

const urlString = str().trim().max(2048);
const headerName = str().regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name").refine(
  (v) => !isReservedHeaderName(v),
  "must not be a hop-by-hop, forwarding or browser-controlled header",
);
/** A credential goes into a header (or a query): printable ASCII, no CR/LF/NUL, no edge spaces. */
const headerSafe = (max: number) =>
  str().min(1).max(max).regex(
    /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
    "must be printable ASCII without line breaks or surrounding spaces",
  );

export const tenantConfigFields = {
  websiteDomain: hostnameSchema.nullable().optional(),
  websiteOrigin: urlString.nullable().optional(),
  cacheTTL: z.number().int().min(0).max(31_536_000).optional(),
  apiOrigin: urlString.nullable().optional(),
  apiAuthMode: z.enum(AUTH_MODES).optional(),
  apiAuthHeader: headerName.nullable().optional(),
  previewParam: str().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be a query parameter name")
    .optional(),
  siteProxy: z.boolean().optional(),
};

export const createTenantSchema = z.object({
  slug: str().trim().toLowerCase(),
  cms: z.enum(CMS_KINDS),
  cloudName: str().trim().regex(
    /^[A-Za-z0-9_-]{1,64}$/,
    "must be 1-64 of letters, digits, _ and -",
  )
    .optional(),
  apiKey: headerSafe(256).optional(),
  apiSecret: headerSafe(256).optional(),
  token: headerSafe(8192).optional(),
  ...tenantConfigFields,
}).strict().superRefine((v, ctx) => {
  if (v.cms === "cloudinary" && !v.cloudName) {
    ctx.addIssue({ code: "custom", path: ["cloudName"], message: "is required for cloudinary" });
  }
  if ((v.apiKey === undefined) !== (v.apiSecret === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [v.apiKey === undefined ? "apiKey" : "apiSecret"],
      message: "apiKey and apiSecret go together",
    });
  }
});
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export const updateTenantSchema = z.object(tenantConfigFields).strict();
export type UpdateTenantInput = z.infer<typeof updateTenantSchema>;

/** PUT api-config: the API proxy settings without the token. */
export const apiConfigSchema = z.object({
  apiOrigin: tenantConfigFields.apiOrigin,
  apiAuthMode: tenantConfigFields.apiAuthMode,
  apiAuthHeader: tenantConfigFields.apiAuthHeader,
  cacheTTL: tenantConfigFields.cacheTTL,
  previewParam: tenantConfigFields.previewParam,
}).strict();

export const apiTokenSchema = z.object({ token: headerSafe(8192) }).strict();
