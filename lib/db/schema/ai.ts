/** Drizzle table definitions mirroring migrations/0003_ai.sql (AI transforms). */
import {
  bigint,
  bigserial,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  unique,
} from "drizzle-orm/pg-core";

import { ts } from "./core.ts";

// The enums live with the snapshot types, which the edge imports without reaching lib/db.
import type { AiPresetId, AiReviewMode, AiRuleStatus } from "../../ai/snapshot_types.ts";
export type { AiPresetId, AiReviewMode, AiRuleStatus };

export const aiRules = pgTable("ai_rules", {
  id: serial("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  presetId: text("preset_id").$type<AiPresetId>().notNull(),
  fieldSelector: text("field_selector").notNull(),
  routePattern: text("route_pattern"),
  profile: text("profile").notNull().default("default"),
  tone: text("tone"),
  targetLanguage: text("target_language"),
  customInstruction: text("custom_instruction"),
  constraints: text("constraints"),
  exampleInput: text("example_input"),
  exampleOutput: text("example_output"),
  status: text("status").$type<AiRuleStatus>().notNull().default("draft"),
  /** Bumped on every edit; part of the transformed-value cache key. */
  version: integer("version").notNull().default(1),
  reviewMode: text("review_mode").$type<AiReviewMode>().notNull().default("auto"),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export type AiFieldError = { ruleId: number | null; path: string; error: string };
export type AiRuleSummary = {
  ruleId: number | null;
  presetId: string;
  fieldSelector: string;
  fields: number;
  transformed: number;
  failed: number;
  cached: number;
  error: string | null;
};

export const aiRuns = pgTable("ai_runs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  mode: text("mode").$type<"preview" | "runtime">().notNull(),
  profile: text("profile"),
  apiPath: text("api_path"),
  status: text("status").$type<"applied" | "partial" | "passthrough" | "error">().notNull(),
  reason: text("reason"),
  model: text("model"),
  rulesEvaluated: integer("rules_evaluated").notNull().default(0),
  fieldsAttempted: integer("fields_attempted").notNull().default(0),
  fieldsTransformed: integer("fields_transformed").notNull().default(0),
  fieldsFailed: integer("fields_failed").notNull().default(0),
  fieldsCached: integer("fields_cached").notNull().default(0),
  modelCalls: integer("model_calls").notNull().default(0),
  latencyMs: integer("latency_ms").notNull().default(0),
  inputTokens: integer("input_tokens").notNull().default(0),
  outputTokens: integer("output_tokens").notNull().default(0),
  fieldErrors: jsonb("field_errors").$type<AiFieldError[]>().notNull().default([]),
  ruleSummary: jsonb("rule_summary").$type<AiRuleSummary[]>().notNull().default([]),
});

export const aiUsageDaily = pgTable("ai_usage_daily", {
  tenantId: integer("tenant_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
  outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
  modelCalls: bigint("model_calls", { mode: "number" }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.tenantId, t.day] })]);

export const aiRegenVersions = pgTable("ai_regen_versions", {
  tenantId: integer("tenant_id").notNull(),
  profile: text("profile").notNull(),
  version: integer("version").notNull().default(1),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.profile] })]);

/** Output review states (migrations/0014_ai_outputs.sql, docs/decisions.md "AI outputs"). */
export const AI_OUTPUT_STATUSES = [
  "auto",
  "pending",
  "approved",
  "rejected",
  "edited",
  "source_changed",
] as const;
export type AiOutputStatus = typeof AI_OUTPUT_STATUSES[number];

export const aiOutputs = pgTable("ai_outputs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  ruleId: integer("rule_id").notNull(),
  ruleVersion: integer("rule_version").notNull(),
  profile: text("profile").notNull(),
  path: text("path").notNull(),
  field: text("field").notNull(),
  source: text("source").notNull(),
  sourceHash: text("source_hash").notNull(),
  output: text("output").notNull(),
  status: text("status").$type<AiOutputStatus>().notNull(),
  pinned: boolean("pinned").notNull().default(false),
  model: text("model").notNull(),
  presetId: text("preset_id").$type<AiPresetId>().notNull(),
  presetVersion: integer("preset_version").notNull(),
  promptHash: text("prompt_hash").notNull(),
  tokens: integer("tokens").notNull().default(0),
  version: integer("version").notNull().default(1),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [unique().on(t.tenantId, t.ruleId, t.path, t.field)]);
