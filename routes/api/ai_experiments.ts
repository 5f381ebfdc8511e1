/**
 * AI experiments management and public conversion events (SPEC "AI experiments
 * management", "Conversion events (public)"). Paths are relative to /api.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { intParam, parseJsonBody, parseQuery, readBodyText } from "../../lib/http/validate.ts";
import { requireTenant } from "../../lib/tenants/access.ts";
import { ApiError, badRequest } from "../../lib/errors.ts";
import {
  createExperimentSchema,
  DEFAULT_GOAL,
  exposuresQuerySchema,
  patchExperimentSchema,
  putVariantsSchema,
} from "../../lib/experiments/schema.ts";
import {
  archiveExperiment,
  createExperiment,
  getExperiment,
  listExperiments,
  replaceVariants,
  updateExperiment,
} from "../../lib/experiments/service.ts";
import { exposureSummary } from "../../lib/experiments/exposures.ts";
import { ingestEvent, MAX_EVENT_BODY_BYTES, parseEventBody } from "../../lib/experiments/events.ts";

const EVENTS = "/ai-experiments/events";
const BASE = "/tenants/:slug/ai-experiments";

export function aiExperimentsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // ---- public conversion events: open CORS on every answer, errors included ----
  app.use(EVENTS, async (c, next) => {
    await next();
    c.res.headers.set("access-control-allow-origin", "*");
    c.res.headers.set("access-control-expose-headers", "retry-after");
  });

  // SPEC: 204, `*`, `POST, OPTIONS`, the request's headers echoed, Max-Age 24 hours.
  app.options(EVENTS, (c) => {
    const requested = c.req.header("access-control-request-headers");
    return c.body(null, 204, {
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": requested ?? "content-type",
      "access-control-max-age": "86400",
      "vary": "access-control-request-headers",
    });
  });

  app.post(EVENTS, async (c) => {
    let text: string;
    try {
      text = await readBodyText(c.req.raw, MAX_EVENT_BODY_BYTES);
    } catch (err) {
      // Rule 5: any validation failure is a 400, an oversized body included.
      if (err instanceof ApiError && err.status === 413) {
        throw badRequest(`Invalid body: exceeds ${MAX_EVENT_BODY_BYTES} bytes`);
      }
      throw badRequest("Invalid body: could not be read");
    }
    const input = parseEventBody(text);
    const { id } = await ingestEvent(c.get("services"), c.get("clientIp"), input);
    return c.json({ ok: true, id });
  });

  // ---- management ----
  app.get(BASE, async (c) => {
    const { tenant } = await requireTenant(c, "viewer");
    return c.json({ experiments: await listExperiments(c.get("services"), tenant.id) });
  });

  app.post(BASE, async (c) => {
    const { tenant, auth } = await requireTenant(c, "editor");
    const body = await parseJsonBody(c, createExperimentSchema);
    return c.json(await createExperiment(c.get("services"), tenant.id, auth.user.id, body), 201);
  });

  app.get(`${BASE}/:id`, async (c) => {
    const { tenant } = await requireTenant(c, "viewer");
    const id = intParam(c, "id");
    return c.json(await getExperiment(c.get("services"), tenant.id, id));
  });

  app.patch(`${BASE}/:id`, async (c) => {
    const { tenant, auth } = await requireTenant(c, "editor");
    const id = intParam(c, "id");
    const body = await parseJsonBody(c, patchExperimentSchema);
    return c.json(await updateExperiment(c.get("services"), tenant.id, id, auth.user.id, body));
  });

  app.delete(`${BASE}/:id`, async (c) => {
    const { tenant, auth } = await requireTenant(c, "editor");
    const id = intParam(c, "id");
    return c.json(await archiveExperiment(c.get("services"), tenant.id, id, auth.user.id));
  });

  app.put(`${BASE}/:id/variants`, async (c) => {
    const { tenant, auth } = await requireTenant(c, "editor");
    const id = intParam(c, "id");
    const { variants } = await parseJsonBody(c, putVariantsSchema);
    return c.json(
      await replaceVariants(c.get("services"), tenant.id, id, auth.user.id, variants),
    );
  });

  app.get(`${BASE}/:id/exposures`, async (c) => {
    const { tenant } = await requireTenant(c, "viewer");
    const id = intParam(c, "id");
    const { goal } = parseQuery(c, exposuresQuerySchema);
    return c.json(await exposureSummary(c.get("services"), tenant.id, id, goal ?? DEFAULT_GOAL));
  });

  return app;
}
