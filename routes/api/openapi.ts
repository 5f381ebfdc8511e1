/** GET /api/openapi.json: the OpenAPI 3.1 document generated from the route declarations. */
import { access, type DeclaredRoute, Routes } from "../../lib/http/route.ts";
import { openApiDocument } from "../../lib/http/openapi.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";

// The document's own schema is OpenAPI 3.1's; only its top level is stated here.
const documentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: str(), version: str() }),
  paths: z.record(str(), z.looseObject({})),
  components: z.looseObject({}),
});

export function openApiRoutes(all: () => DeclaredRoute[]): Routes {
  const app = new Routes("");
  let doc: Record<string, unknown> | undefined;
  app.get("/openapi.json", {
    access: access.public,
    summary: "This document: every declared route with its access, inputs and statuses",
    response: documentSchema,
  }, (c) => {
    doc ??= openApiDocument(all(), c.get("services").config.publicUrl);
    c.header("cache-control", "public, max-age=300");
    return c.json(doc);
  });
  return app;
}
