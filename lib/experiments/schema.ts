/**
 * Request schemas for AI experiments management (SPEC "AI experiments management").
 * Decisions for what SPEC leaves open (variant `config`, routeMatch values, weights)
 * are in docs/decisions.md "Experiments".
 */
import { z } from "zod";
import { str } from "../base/text.ts";
import { normalizeRoutePattern, ROUTE_MATCHES } from "./route.ts";

/** Same grammar as AI rule profiles: they travel in `?transform=<profile>`. */
export const profileSchema = str().regex(
  /^[A-Za-z0-9_.:-]{1,64}$/,
  "must be 1-64 of letters, digits, _ . : and -",
);

export const variantKeySchema = str().regex(
  /^[A-Za-z0-9_.:-]{1,64}$/,
  "must be 1-64 of letters, digits, _ . : and -",
);

/** Variants per experiment; more would only thin each arm's traffic. */
export const MAX_VARIANTS = 10;
/** Largest weight: splits are weight / sum, so this bounds the hash bucket count. */
export const MAX_WEIGHT = 10_000;

const variantInput = z.object({
  key: variantKeySchema,
  weight: z.number().int("must be an integer").min(1, "must be a positive integer")
    .max(MAX_WEIGHT).optional(),
  /** `{ transformProfile }`; null, `{}` or `{ transformProfile: null }` is control. */
  config: z.object({ transformProfile: profileSchema.nullable().optional() }).strict().nullable()
    .optional(),
  label: str().trim().min(1).max(120).optional(),
  /** Shorthand for config.transformProfile; null is control. */
  transformProfile: profileSchema.nullable().optional(),
}).strict();

export type VariantInput = {
  key: string;
  weight: number;
  label: string;
  transformProfile: string | null;
};

export const variantsSchema = z.array(variantInput).max(MAX_VARIANTS).superRefine((vs, ctx) => {
  const seen = new Set<string>();
  vs.forEach((v, i) => {
    if (seen.has(v.key)) {
      ctx.addIssue({ code: "custom", path: [i, "key"], message: `duplicate key "${v.key}"` });
    }
    seen.add(v.key);
    const fromConfig = v.config ? (v.config.transformProfile ?? null) : undefined;
    if (
      fromConfig !== undefined && v.transformProfile !== undefined &&
      fromConfig !== v.transformProfile
    ) {
      ctx.addIssue({
        code: "custom",
        path: [i, "transformProfile"],
        message: "must equal config.transformProfile",
      });
    }
  });
}).transform((vs): VariantInput[] =>
  vs.map((v) => ({
    key: v.key,
    weight: v.weight ?? 1,
    label: v.label ?? v.key,
    transformProfile: v.config?.transformProfile ?? v.transformProfile ?? null,
  }))
);

/** Fewest visitors per arm a guardrail may judge on: below it the bound is not meaningful. */
export const MIN_VISITORS_FLOOR = 30;

/** Guardrails: any subset; null clears them. Out of range is a 400 naming the field. */
export const guardrailsSchema = z.object({
  maxErrorRate: z.number().min(0).max(1).optional(),
  maxP95Ms: z.number().int("must be an integer").min(1).max(60_000).optional(),
  minConversionRate: z.number().min(0).max(1).optional(),
  goal: str().regex(/^[a-zA-Z0-9_.:-]{1,80}$/, "must match ^[a-zA-Z0-9_.:-]{1,80}$").optional(),
  /** Worse than control by more than this share of visitors (default 0.01). */
  margin: z.number().min(0).max(1).optional(),
  /** Visitors each arm needs before a verdict (default 100; the normal approximation). */
  minVisitors: z.number().int("must be an integer").min(MIN_VISITORS_FLOOR).max(1_000_000)
    .optional(),
}).strict();

const nameSchema = str().trim().min(1, "must not be empty").max(200);
const routeMatchSchema = z.enum(ROUTE_MATCHES);

/** Variants an experiment needs: at creation and to activate (SPEC). */
export const MIN_VARIANTS = 2;

export const createExperimentSchema = z.object({
  name: nameSchema,
  routePattern: str().optional(),
  routeMatch: routeMatchSchema.optional(),
  // The original product refuses an experiment with nothing to compare.
  variants: variantsSchema,
  guardrails: guardrailsSchema.nullable().optional(),
}).strict().transform((b, ctx) => {
  if (b.variants.length < MIN_VARIANTS) {
    ctx.addIssue({
      code: "custom",
      path: ["variants"],
      message: `must have at least ${MIN_VARIANTS} (e.g. control and one profile)`,
    });
    return z.NEVER;
  }
  const match = b.routeMatch ?? "prefix";
  const r = normalizeRoutePattern(b.routePattern ?? "/", match);
  if ("problem" in r) {
    ctx.addIssue({ code: "custom", path: ["routePattern"], message: r.problem });
    return z.NEVER;
  }
  return {
    name: b.name,
    routePattern: r.pattern,
    routeMatch: match,
    variants: b.variants,
    guardrails: b.guardrails ?? null,
  };
});
export type CreateExperimentInput = z.output<typeof createExperimentSchema>;

export const patchExperimentSchema = z.object({
  name: nameSchema.optional(),
  routePattern: str().optional(),
  routeMatch: routeMatchSchema.optional(),
  status: z.enum(["draft", "active", "archived", "stopped"]).optional(),
  guardrails: guardrailsSchema.nullable().optional(),
}).strict();

export type PatchExperimentInput = z.output<typeof patchExperimentSchema>;

export const putVariantsSchema = z.object({ variants: variantsSchema }).strict();

/** Event names (SPEC "Experiment event"); also the `goal` of the exposure summary. */
export const EVENT_NAME_RE = /^[a-zA-Z0-9_.:-]{1,80}$/;
export const DEFAULT_GOAL = "homepage_hero_cta_click";

const goalSchema = str().regex(EVENT_NAME_RE, "must match ^[a-zA-Z0-9_.:-]{1,80}$");
export const exposuresQuerySchema = z.object({ goal: goalSchema.optional() });

/**
 * POST .../{id}/promote: the variant whose profile becomes the route's default, judged on
 * `goal` (the goal the results page shows; else the guardrails' goal, else the default).
 */
export const promoteSchema = z.object({
  variantId: z.number().int().min(1).max(2_147_483_647),
  goal: goalSchema.optional(),
}).strict();
