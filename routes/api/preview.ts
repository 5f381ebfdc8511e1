/**
 * Editors' previews (docs/providers.md "Previews"): signed preview links (editor+), the
 * link secret's rotation and the preview credential (admin+). Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { apiTokenSchema } from "../../lib/tenants/schema.ts";
import {
  createPreviewLink,
  rotatePreviewSecret,
  setPreviewCredential,
} from "../../lib/preview/service.ts";
import { PREVIEW_LINK_MAX_TTL_SECONDS } from "../../lib/preview/link_token.ts";

const linkBody = z.strictObject({
  path: str().min(1).max(2048).describe("A site or API path on the tenant host (/~api/\u2026)"),
  ttlSeconds: z.number().int().min(60).max(PREVIEW_LINK_MAX_TTL_SECONDS).optional()
    .describe("Lifetime in seconds (default 7200, the 2 h default)"),
});
const linkSchema = z.strictObject({
  url: str(),
  token: str(),
  path: str(),
  scope: str().describe("The path prefix the link opens (a site page opens every API read)"),
  expiresAt: str(),
});
const credentialBody = z.strictObject({
  token: apiTokenSchema.shape.token.nullable().optional()
    .describe("Preview token (write-only); null removes it"),
  apiOrigin: str().trim().max(2048).nullable().optional()
    .describe("Preview API origin, e.g. https://preview.contentful.com; null removes it"),
});

export function previewRoutes(): Routes {
  const app = new Routes("");

  app.post("/tenants/:slug/preview-links", {
    access: access.tenant("editor"),
    summary: "Makes a signed, expiring preview link for a site or API path",
    body: linkBody,
    response: linkSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await createPreviewLink(c.get("services"), tenant, auth.user.id, body), 201);
  });

  app.put("/tenants/:slug/preview-secret", {
    access: access.tenant("admin"),
    summary: "Replaces the preview-link secret: every earlier link stops working",
    response: z.strictObject({ ok: z.literal(true), rotatedAt: str() }),
  }, async (c, { tenant, auth }) => {
    return c.json(await rotatePreviewSecret(c.get("services"), tenant, auth.user.id));
  });

  app.put("/tenants/:slug/preview-credential", {
    access: access.tenant("admin"),
    summary: "Sets the preview token and API origin used only with a valid preview link",
    body: credentialBody,
    response: z.strictObject({
      ok: z.literal(true),
      hasToken: z.boolean(),
      apiOrigin: str().nullable(),
    }),
  }, async (c, { tenant, auth, body }) => {
    return c.json(await setPreviewCredential(c.get("services"), tenant, auth.user.id, body));
  });

  return app;
}
