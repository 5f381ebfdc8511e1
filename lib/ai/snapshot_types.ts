/**
 * The AI part of a tenant's edge snapshot (owned by lib/ai). Dependency-free: the
 * edge imports it, and edge/ never reaches lib/db.
 */

/** Rule status (SPEC "AI transform rule status"; pause/resume in docs/decisions.md). */
export type AiRuleStatus = "draft" | "active" | "paused";
export type AiPresetId = "rewrite_tone" | "shorten" | "translate" | "custom";
/** auto: a new output is served at once; review: only once a person approves it. */
export type AiReviewMode = "auto" | "review";

/** An active rule as the runtime needs it (no ids of users, no timestamps). */
export type AiRuleSnapshot = {
  id: number;
  /** Bumped on every edit; part of the transformed-value cache key. */
  version: number;
  presetId: AiPresetId;
  fieldSelector: string;
  /**
   * Path prefix of the API path (without /~api, or with the apiOrigin's base path in front);
   * null matches every path.
   */
  routePattern: string | null;
  profile: string;
  tone: string | null;
  targetLanguage: string | null;
  customInstruction: string | null;
  constraints: string | null;
  example: { input: string; output: string } | null;
  /** Absent in snapshots written before review modes existed: auto. */
  reviewMode?: AiReviewMode;
};

export type AiLimits = {
  maxFieldsPerResponse: number;
  maxCharsPerField: number;
  monthlyTokenCap: number | null;
  dailyTokenCap: number | null;
};

export type AiSnapshot = {
  /** Active rules only; preview reads the database. */
  rules: AiRuleSnapshot[];
  /** Per-profile regenerate versions, part of the transformed-response cache key. */
  regenVersions: Record<string, number>;
  limits: AiLimits;
};

/** SPEC "Limits": 8,000 characters per field by default, configurable downward only. */
export const MAX_CHARS_PER_FIELD = 8000;
/** SPEC "Limits": 20 fields per runtime rule. */
export const MAX_FIELDS_PER_RUNTIME_RULE = 20;
/** SPEC "Limits": 5 fields per preview request. */
export const MAX_FIELDS_PER_PREVIEW = 5;
/** Our default for the tenant-level maxFieldsPerResponse (docs/decisions.md). */
export const DEFAULT_MAX_FIELDS_PER_RESPONSE = 50;

export const EMPTY_AI_SNAPSHOT: AiSnapshot = {
  rules: [],
  regenVersions: {},
  limits: {
    maxFieldsPerResponse: DEFAULT_MAX_FIELDS_PER_RESPONSE,
    maxCharsPerField: MAX_CHARS_PER_FIELD,
    monthlyTokenCap: null,
    dailyTokenCap: null,
  },
};
