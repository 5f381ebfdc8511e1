/** AI transform management and execute (SPEC "AI transform management"). Paths are relative to /api. */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { intParam } from "../../lib/http/validate.ts";
import { ApiError, badRequest, notFound } from "../../lib/errors.ts";
import { readSnapshot } from "../../lib/kv/snapshot.ts";
import {
  createRuleSchema,
  previewSchema,
  profileSchema,
  settingsSchema,
  updateRuleSchema,
} from "../../lib/ai/rule_schema.ts";
import {
  changeStatus,
  createRule,
  deleteRule,
  listRules,
  ruleView,
  type StatusAction,
  updateRule,
} from "../../lib/ai/rules.ts";
import { runPreview } from "../../lib/ai/preview.ts";
import { normaliseApiPath, regenerate } from "../../lib/ai/regenerate.ts";
import { listRuns, RUN_MODES, RUN_STATUSES } from "../../lib/ai/runs.ts";
import { usageView } from "../../lib/ai/usage.ts";
import { listActiveProfiles } from "../../lib/ai/profiles.ts";
import { tenantAiLimits, updateAiSettings } from "../../lib/ai/settings.ts";
import { aiEngineFor } from "../../lib/ai/engine.ts";
import { okSchema } from "../../lib/base/shapes.ts";
import {
  actOnOutput,
  bulkApprove,
  listOutputs,
  type OutputAction,
  outputCounts,
} from "../../lib/ai/outputs.ts";
import { AI_OUTPUT_STATUSES } from "../../lib/db/schema/ai.ts";
import { MAX_CHARS_PER_FIELD } from "../../lib/ai/snapshot_types.ts";
import {
  aiSettingsSchema,
  aiUsageViewSchema,
  bulkApproveResultSchema,
  outputCountsSchema,
  outputsPageSchema,
  outputViewSchema,
  previewResultSchema,
  profilesSchema,
  regenerateResultSchema,
  rulesListSchema,
  ruleViewSchema,
  runsPageSchema,
  transformedJsonSchema,
} from "../../lib/ai/view_schema.ts";

const BASE = "/tenants/:slug/ai-transform";

const STATUS_SUMMARIES: Record<StatusAction, string> = {
  activate: "Toggles a rule between draft and active",
  pause: "Pauses a rule: it runs in neither preview nor runtime",
  resume: "Resumes a paused rule as active",
};

const runsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  mode: z.enum(RUN_MODES).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  profile: profileSchema.optional(),
});

const outputsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: str().regex(/^[1-9]\d{0,15}$/, "must be a nextCursor value").transform(Number)
    .optional(),
  ruleId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  status: z.enum(AI_OUTPUT_STATUSES).optional(),
  path: str().min(1).max(2048).optional(),
  profile: profileSchema.optional(),
});

/** The version the reviewer saw: a stale one is a 409 (optional, as for a script). */
const versionField = z.number().int().min(1).max(2_147_483_647).optional();
const outputActionSchema = z.object({ version: versionField }).strict();
const outputEditSchema = z.object({
  output: str().min(1, "must not be empty").max(MAX_CHARS_PER_FIELD),
  version: versionField,
}).strict();
const bulkApproveSchema = z.object({
  outputs: z.array(
    z.object({
      id: z.number().int().min(1).max(2_147_483_647),
      version: z.number().int().min(1).max(2_147_483_647),
    }).strict(),
  ).min(1).max(500),
}).strict();

const OUTPUT_SUMMARIES: Record<Exclude<OutputAction, "edit">, string> = {
  approve: "Approves an output: it is served while its source is unchanged",
  reject: "Rejects an output: the source is served until the source changes",
  pin: "Pins an output: served, never replaced by a regenerate or model change",
};

const regenerateSchema = z.object({
  profile: profileSchema,
  apiPath: str().min(1).max(2048),
}).strict();

/** Execute payload (field names in docs/decisions.md). */
const executeSchema = z.object({
  tenant: str().min(1).max(100),
  profile: profileSchema,
  url: str().min(1).max(4096),
  payload: z.unknown(),
}).superRefine((v, ctx) => {
  if (v.payload === undefined) {
    ctx.addIssue({ code: "custom", path: ["payload"], message: "is required" });
  }
});

/**
 * The AI transform API, one route table per resource (rules, preview and regenerate, stored
 * outputs, runs and settings, execute), declared in this order.
 */
export function aiTransformRoutes(): Routes {
  const app = new Routes("");
  ruleRoutes(app);
  previewRoutes(app);
  outputRoutes(app);
  runAndSettingRoutes(app);
  executeRoutes(app);
  return app;
}

/** Rules: list, create, read, update, delete, and their status actions. */
function ruleRoutes(app: Routes): void {
  app.get(`${BASE}/rules`, {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's transform rules",
    response: rulesListSchema,
  }, async (c, { tenant }) => {
    const rules = await listRules(c.get("services"), tenant.id);
    return c.json({ rules: rules.map(ruleView) });
  });

  app.post(`${BASE}/rules`, {
    access: access.tenant("editor"),
    summary: "Creates a draft transform rule",
    response: ruleViewSchema,
    body: createRuleSchema,
    ok: 201,
  }, async (c, { tenant, auth, body }) => {
    const rule = await createRule(c.get("services"), tenant, auth.user.id, body);
    return c.json(ruleView(rule), 201);
  });

  app.put(`${BASE}/rules/:id`, {
    access: access.tenant("editor"),
    summary: "Changes the given fields of a rule",
    response: ruleViewSchema,
    body: updateRuleSchema,
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    return c.json(ruleView(await updateRule(c.get("services"), tenant, auth.user.id, id, body)));
  });

  app.delete(`${BASE}/rules/:id`, {
    access: access.tenant("editor"),
    summary: "Deletes a rule",
    response: okSchema,
  }, async (c, { tenant, auth }) => {
    const id = intParam(c, "id");
    await deleteRule(c.get("services"), tenant, auth.user.id, id);
    return c.json({ ok: true });
  });

  for (const action of ["activate", "pause", "resume"] as StatusAction[]) {
    app.post(`${BASE}/rules/:id/${action}`, {
      access: access.tenant("editor"),
      summary: STATUS_SUMMARIES[action],
      response: ruleViewSchema,
      ...(action === "resume" ? { errors: [409] } : {}),
    }, async (c, { tenant, auth }) => {
      const id = intParam(c, "id");
      const rule = await changeStatus(c.get("services"), tenant, auth.user.id, id, action);
      return c.json(ruleView(rule));
    });
  }
}

/** Preview a rule on sample content; regenerate one upstream path. */
function previewRoutes(app: Routes): void {
  app.post(`${BASE}/preview`, {
    access: access.tenant("editor"),
    summary: "Runs a stored or inline rule on sample content (at most 5 fields)",
    response: previewResultSchema,
    body: previewSchema,
    bodyMaxBytes: 512 * 1024,
  }, async (c, { tenant, body }) => c.json(await runPreview(c.get("services"), tenant, body)));

  app.post(`${BASE}/regenerate`, {
    access: access.tenant("editor"),
    summary: "Re-transforms one upstream path for a profile and invalidates its cached copy",
    response: regenerateResultSchema,
    body: regenerateSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await regenerate(c.get("services"), tenant, auth.user.id, body));
  });
}

/** Stored outputs and their review. */
function outputRoutes(app: Routes): void {
  app.get(`${BASE}/outputs`, {
    access: access.tenant("viewer"),
    summary: "Lists stored AI outputs with their provenance, newest first (cursor paging)",
    response: outputsPageSchema,
    query: outputsQuery,
  }, async (c, { tenant, query }) => {
    const s = c.get("services");
    await aiEngineFor(s).flush(); // this instance's queued outputs are visible at once
    return c.json(await listOutputs(s, tenant.id, query));
  });

  app.get(`${BASE}/outputs/counts`, {
    access: access.tenant("viewer"),
    summary: "Stored outputs per status, overall and per rule (the review queue)",
    response: outputCountsSchema,
  }, async (c, { tenant }) => {
    const s = c.get("services");
    await aiEngineFor(s).flush();
    return c.json(await outputCounts(s, tenant.id));
  });

  app.post(`${BASE}/outputs/approve`, {
    access: access.tenant("editor"),
    summary: "Approves many outputs, each only if still at the version given",
    response: bulkApproveResultSchema,
    body: bulkApproveSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json(await bulkApprove(c.get("services"), tenant, auth.user.id, body.outputs));
  });

  for (const action of ["approve", "reject", "pin"] as const) {
    app.post(`${BASE}/outputs/:id/${action}`, {
      access: access.tenant("editor"),
      summary: OUTPUT_SUMMARIES[action],
      response: outputViewSchema,
      body: outputActionSchema,
      errors: [409],
    }, async (c, { tenant, auth, body }) => {
      const id = intParam(c, "id");
      return c.json(await actOnOutput(c.get("services"), tenant, auth.user.id, id, action, body));
    });
  }

  app.put(`${BASE}/outputs/:id`, {
    access: access.tenant("editor"),
    summary: "Replaces an output with a person's text: served and pinned",
    response: outputViewSchema,
    body: outputEditSchema,
    errors: [409],
  }, async (c, { tenant, auth, body }) => {
    const id = intParam(c, "id");
    return c.json(await actOnOutput(c.get("services"), tenant, auth.user.id, id, "edit", body));
  });
}

/** Runs, usage, profiles and settings. */
function runAndSettingRoutes(app: Routes): void {
  app.get(`${BASE}/runs`, {
    access: access.tenant("viewer"),
    summary: "Lists transform runs, newest first, with the total matching the filter",
    response: runsPageSchema,
    query: runsQuery,
  }, async (c, { tenant, query }) => {
    const s = c.get("services");
    await aiEngineFor(s).runs.flush(); // this instance's queued runs are visible at once
    return c.json(await listRuns(s, tenant.id, query));
  });

  app.get(
    `${BASE}/usage`,
    {
      access: access.tenant("viewer"),
      summary: "Token usage of this month and day, and the limits",
      response: aiUsageViewSchema,
    },
    async (c, { tenant }) => {
      const s = c.get("services");
      await aiEngineFor(s).runs.flush();
      return c.json(await usageView(s, tenant.id, tenantAiLimits(tenant)));
    },
  );

  app.get(
    `${BASE}/profiles`,
    {
      access: access.tenant("viewer"),
      summary: "Profiles that have at least one active rule",
      response: profilesSchema,
    },
    async (c, { tenant }) => {
      return c.json({ profiles: await listActiveProfiles(c.get("services"), tenant.id) });
    },
  );

  app.get(
    `${BASE}/settings`,
    {
      access: access.tenant("viewer"),
      summary: "The tenant's AI limits",
      response: aiSettingsSchema,
    },
    (c, { tenant }) => c.json({ settings: tenantAiLimits(tenant) }),
  );

  app.put(`${BASE}/settings`, {
    access: access.tenant("admin"),
    summary: "Changes the tenant's AI limits",
    response: aiSettingsSchema,
    body: settingsSchema,
  }, async (c, { tenant, auth, body }) => {
    return c.json({
      settings: await updateAiSettings(c.get("services"), tenant, auth.user.id, body),
    });
  });
}

/** Execute: the same runtime pipeline, for an edge deployed apart from the app. */
function executeRoutes(app: Routes): void {
  app.post("/ai-transform/execute", {
    access: access.machineKey("aiTransform"),
    summary: "Runs a profile's active rules on a JSON payload for an edge deployed apart",
    response: transformedJsonSchema,
    body: executeSchema,
    bodyMaxBytes: (c) => c.get("services").config.edgeCacheMaxObjectBytes,
  }, async (c, { body }) => {
    const s = c.get("services");
    const snap = await readSnapshot(s.kv, body.tenant.toLowerCase());
    if (!snap) throw notFound("Tenant");
    let path = body.url;
    if (/^https?:\/\//i.test(path)) {
      const u = URL.parse(path);
      if (!u) throw badRequest("Invalid url: not a URL");
      path = u.pathname + u.search;
    }
    const r = await aiEngineFor(s).runtime({
      tenantId: snap.tenantId,
      ai: snap.ai,
      profile: body.profile,
      apiPath: normaliseApiPath(path),
      body: JSON.stringify(body.payload),
    });
    if (r.outcome === "error") {
      throw new ApiError(500, "transform_failed", "Transform failed");
    }
    return new Response(r.body, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-ai-transform": r.outcome === "passthrough" ? "skipped" : r.outcome,
        "x-ai-transform-outcome": r.outcome,
        ...(r.skipReason ? { "x-ai-transform-skip-reason": r.skipReason } : {}),
      },
    });
  });
}
