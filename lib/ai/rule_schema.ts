/**
 * Request schemas for AI transform rules (SPEC "AI transform rule"). Preset-specific
 * fields are required per preset: tone for rewrite_tone, targetLanguage for translate,
 * customInstruction for custom (which alone may carry constraints and one example pair).
 */
import { z } from "zod";
import { str } from "../base/text.ts";
import { selectorProblem } from "./selector.ts";
import type { AiPresetId } from "../db/schema/ai.ts";

export const PRESET_IDS = ["rewrite_tone", "shorten", "translate", "custom"] as const;

/** Profiles travel in `?transform=<profile>`: matched exactly and case-sensitively (SPEC). */
export const profileSchema = str().regex(
  /^[A-Za-z0-9_.:-]{1,64}$/,
  "must be 1-64 of letters, digits, _ . : and -",
);
export const DEFAULT_PROFILE = "default";

export const fieldSelectorSchema = str().superRefine((v, ctx) => {
  const problem = selectorProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const routePatternSchema = str().max(512).regex(
  /^\/[^\s?#]*$/,
  'must be a path starting with "/"',
);
const text = (max: number) => str().trim().min(1).max(max);
const languageSchema = str().regex(
  /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
  "must be a language code such as de or pt-BR",
);
const exampleSchema = z.object({ input: text(2000), output: text(2000) }).strict();

const ruleFields = {
  presetId: z.enum(PRESET_IDS),
  fieldSelector: fieldSelectorSchema,
  routePattern: routePatternSchema.nullable().optional(),
  profile: profileSchema.optional(),
  tone: text(100).nullable().optional(),
  targetLanguage: languageSchema.nullable().optional(),
  customInstruction: text(2000).nullable().optional(),
  constraints: text(2000).nullable().optional(),
  example: exampleSchema.nullable().optional(),
  /** auto: outputs are served at once; review: only once approved. */
  reviewMode: z.enum(["auto", "review"]).optional(),
};

/** The preset-dependent part of a rule, as stored. */
export type RuleConfig = {
  presetId: AiPresetId;
  tone: string | null;
  targetLanguage: string | null;
  customInstruction: string | null;
  constraints: string | null;
  example: { input: string; output: string } | null;
};

type Ctx = z.RefinementCtx;

/** Checks the merged configuration: required fields present, foreign fields absent. */
export function checkPresetFields(
  cfg: Partial<RuleConfig> & { presetId: AiPresetId },
  ctx: Ctx,
  supplied: Record<string, unknown>,
): void {
  const need = (field: keyof RuleConfig, preset: AiPresetId) => {
    if (cfg.presetId === preset && !cfg[field]) {
      ctx.addIssue({ code: "custom", path: [field], message: `is required for ${preset}` });
    }
    if (cfg.presetId !== preset && supplied[field] !== undefined && supplied[field] !== null) {
      ctx.addIssue({ code: "custom", path: [field], message: `only applies to ${preset}` });
    }
  };
  need("tone", "rewrite_tone");
  need("targetLanguage", "translate");
  need("customInstruction", "custom");
  for (const f of ["constraints", "example"] as const) {
    if (cfg.presetId !== "custom" && supplied[f] !== undefined && supplied[f] !== null) {
      ctx.addIssue({ code: "custom", path: [f], message: "only applies to custom" });
    }
  }
}

/** POST rules body. */
export const createRuleSchema = z.object(ruleFields).strict().superRefine((v, ctx) =>
  checkPresetFields(
    {
      presetId: v.presetId,
      tone: v.tone ?? null,
      targetLanguage: v.targetLanguage ?? null,
      customInstruction: v.customInstruction ?? null,
    },
    ctx,
    v,
  )
);
export type CreateRuleInput = z.infer<typeof createRuleSchema>;

/** PUT rules/{id} body: changed fields only; preset checks run on the merged rule. */
export const updateRuleSchema = z.object({
  ...ruleFields,
  presetId: ruleFields.presetId.optional(),
  fieldSelector: ruleFields.fieldSelector.optional(),
}).strict();
export type UpdateRuleInput = z.infer<typeof updateRuleSchema>;

/** Preview body: a stored rule (`ruleId`) or an inline rule configuration, plus sample content. */
export const previewSchema = z.object({
  ruleId: z.number().int().positive().optional(),
  presetId: ruleFields.presetId.optional(),
  fieldSelector: ruleFields.fieldSelector.optional(),
  tone: ruleFields.tone,
  targetLanguage: ruleFields.targetLanguage,
  customInstruction: ruleFields.customInstruction,
  constraints: ruleFields.constraints,
  example: ruleFields.example,
  sample: z.unknown(),
}).strict().superRefine((v, ctx) => {
  if (v.sample === undefined) {
    ctx.addIssue({ code: "custom", path: ["sample"], message: "is required" });
  }
  if (v.ruleId !== undefined) return;
  if (!v.presetId) ctx.addIssue({ code: "custom", path: ["presetId"], message: "is required" });
  if (!v.fieldSelector) {
    ctx.addIssue({ code: "custom", path: ["fieldSelector"], message: "is required" });
  }
  if (v.presetId) {
    checkPresetFields(
      {
        presetId: v.presetId,
        tone: v.tone ?? null,
        targetLanguage: v.targetLanguage ?? null,
        customInstruction: v.customInstruction ?? null,
      },
      ctx,
      v,
    );
  }
});
export type PreviewInput = z.infer<typeof previewSchema>;

/** PUT ai-transform/settings body (limits are tenant-level; caps null = none). */
export const settingsSchema = z.object({
  maxFieldsPerResponse: z.number().int().min(1).max(1000).optional(),
  maxCharsPerField: z.number().int().min(1).max(8000).optional(),
  monthlyTokenCap: z.number().int().min(1).max(1e12).nullable().optional(),
  dailyTokenCap: z.number().int().min(1).max(1e12).nullable().optional(),
}).strict();
export type SettingsInput = z.infer<typeof settingsSchema>;
