import type { MiddlewareHandler } from "hono";
/**
 * AI experiments management and public conversion events (SPEC "AI experiments
 * management", "Conversion events (public)"). Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { intParam, readBodyText } from "../../lib/http/validate.ts";
import { ApiError, badRequest } from "../../lib/errors.ts";
import {
  createExperimentSchema,
  DEFAULT_GOAL,
  exposuresQuerySchema,
  patchExperimentSchema,
  promoteSchema,
  putVariantsSchema,
} from "../../lib/experiments/schema.ts";
import { promoteWinner } from "../../lib/experiments/promote.ts";
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
import {
  eventStoredSchema,
  experimentsListSchema,
  experimentViewSchema,
  exposureSummarySchema,
} from "../../lib/experiments/view_schema.ts";

const EVENTS = "/ai-experiments/events";
const BASE = "/tenants/:slug/ai-experiments";

/** Public conversion events: open CORS on every answer, errors included. */
const openCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set("access-control-allow-origin", "*");
  c.res.headers.set("access-control-expose-headers", "retry-after");
};

/** Experiments: the public conversion-events endpoint, then their management, in this order. */
export function aiExperimentsRoutes(): Routes {
  const app = new Routes("");
  eventRoutes(app);
  managementRoutes(app);
  return app;
}

/** Conversion events posted from visitors' browsers (CORS open) and their preflight. */
function eventRoutes(app: Routes): void {
  // SPEC: 204, `*`, `POST, OPTIONS`, the request's headers echoed, Max-Age 24 hours.
  app.options(EVENTS, {
    access: access.public,
    summary: "Conversion events preflight: 204, `*`, `POST, OPTIONS`, headers echoed, 24 h",
    ok: 204,
    before: [openCors],
  }, (c) => {
    const requested = c.req.header("access-control-request-headers");
    return c.body(null, 204, {
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": requested ?? "content-type",
      "access-control-max-age": "86400",
      "vary": "access-control-request-headers",
    });
  });

  app.post(EVENTS, {
    access: access.public,
    before: [openCors],
    errors: [404, 429],
    summary: "Stores one conversion event for an experiment variant",
    response: eventStoredSchema,
  }, async (c) => {
    let text: string;
    try {
      const idleMs = c.get("services").config.bodyIdleTimeoutMs;
      text = await readBodyText(c.req.raw, MAX_EVENT_BODY_BYTES, idleMs);
    } catch (err) {
      // Rule 5: any validation failure is a 400, an oversized body included.
      if (err instanceof ApiError && err.status === 413) {
        throw badRequest(`Invalid body: exceeds ${MAX_EVENT_BODY_BYTES} bytes`);
      }
      throw badRequest("Invalid body: could not be read");
    }
    const input = parseEventBody(text);
    const { id } = await ingestEvent(
      c.get("services"),
      { ip: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? "" },
      input,
    );
    return c.json({ ok: true, id });
  });
}

// Long: the management route table: 8 declarations (list, create, read, update, delete, variants,
// promote, exposure stats), each its access, schemas and summary beside a short handler calling lib.
function managementRoutes(app: Routes): void {
  app.get(BASE, {
    access: access.tenant("viewer"),
    summary: "Lists the non-archived experiments with their variants",
    response: experimentsListSchema,
  }, async (c, { tenant }) => {
    return c.json({ experiments: await listExperiments(c.get("services"), tenant.id) });
  });

  app.post(BASE, {
    access: access.tenant("editor"),
    summary: "Creates a draft experiment with optional variants",
    response: experimentViewSchema,
    body: createExperimentSchema,
    ok: 201,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await createExperiment(c.get("services"), tenant.id, auth.user.id, body), 201);
  });

  app.get(
    `${BASE}/:id`,
    {
      access: access.tenant("viewer"),
      summary: "Shows an experiment with its variants",
      response: experimentViewSchema,
    },
    async (c, { tenant }) => {
      const id = intParam(c, "id");
      return c.json(await getExperiment(c.get("services"), tenant.id, id));
    },
  );

  app.patch(`${BASE}/:id`, {
    access: access.tenant("editor"),
    summary: "Renames, re-routes or changes the status of an experiment (activation is validated)",
    response: experimentViewSchema,
    body: patchExperimentSchema,
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    return c.json(await updateExperiment(c.get("services"), tenant.id, id, auth.user.id, body));
  });

  app.delete(
    `${BASE}/:id`,
    {
      access: access.tenant("editor"),
      summary: "Archives an experiment, keeping its rows for historical joins",
      response: experimentViewSchema,
    },
    async (c, { tenant, auth }) => {
      const id = intParam(c, "id");
      return c.json(await archiveExperiment(c.get("services"), tenant.id, id, auth.user.id));
    },
  );

  app.put(`${BASE}/:id/variants`, {
    access: access.tenant("editor"),
    summary: "Replaces all variants of an experiment at once",
    response: experimentViewSchema,
    body: putVariantsSchema,
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    return c.json(
      await replaceVariants(c.get("services"), tenant.id, id, auth.user.id, body.variants),
    );
  });

  app.post(`${BASE}/:id/promote`, {
    access: access.tenant("editor"),
    summary: "Makes a winning variant's profile what every visitor on the route gets",
    response: experimentViewSchema,
    body: promoteSchema,
    errors: [409],
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    const promoted = await promoteWinner(
      c.get("services"),
      tenant.id,
      id,
      auth.user.id,
      body.variantId,
      body.goal,
    );
    return c.json(promoted);
  });

  app.get(`${BASE}/:id/exposures`, {
    access: access.tenant("viewer"),
    summary: "All-time exposures, goal events and splits per variant",
    response: exposureSummarySchema,
    query: exposuresQuerySchema,
  }, async (c, { tenant, query }) => {
    const id = intParam(c, "id");
    return c.json(
      await exposureSummary(c.get("services"), tenant.id, id, query.goal ?? DEFAULT_GOAL),
    );
  });
}
