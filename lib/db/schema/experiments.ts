/** Drizzle table definitions mirroring migrations/0004_experiments.sql (AI experiments). */
import { bigserial, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./core.ts";

/** Experiment status (SPEC "AI experiment status"). */
export type ExperimentStatus = "draft" | "active" | "archived" | "stopped" | "promoted";
/** A variant's counts at a restart, by variant id (guardrails count only what follows). */
export type GuardrailCounts = {
  exposures: number;
  errors: number;
  latency: number[];
  events: number;
};

/** Guardrail thresholds (issue 28); any subset. Rates are fractions (0.02 = 2 %). */
export type Guardrails = {
  maxErrorRate?: number;
  maxP95Ms?: number;
  minConversionRate?: number;
  /** The goal event of minConversionRate (default: the exposure summary's default goal). */
  goal?: string;
};
// Defined beside the matcher, which the edge imports without reaching lib/db.
import type { RouteMatch } from "../../experiments/route.ts";
export type { RouteMatch };

export const experiments = pgTable("experiments", {
  id: serial("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  name: text("name").notNull(),
  routePattern: text("route_pattern").notNull().default("/"),
  routeMatch: text("route_match").$type<RouteMatch>().notNull().default("prefix"),
  status: text("status").$type<ExperimentStatus>().notNull().default("draft"),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  archivedAt: ts("archived_at"),
  guardrails: jsonb("guardrails").$type<Guardrails>(),
  stopReason: text("stop_reason"),
  stoppedAt: ts("stopped_at"),
  promotedVariantId: integer("promoted_variant_id"),
  guardrailBaseline: jsonb("guardrail_baseline").$type<Record<string, GuardrailCounts>>(),
});

export const experimentVariants = pgTable("experiment_variants", {
  id: serial("id").primaryKey(),
  experimentId: integer("experiment_id").notNull(),
  tenantId: integer("tenant_id").notNull(),
  key: text("key").notNull(),
  label: text("label").notNull(),
  weight: integer("weight").notNull().default(1),
  /** null for control. */
  transformProfile: text("transform_profile"),
  position: integer("position").notNull().default(0),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const experimentEvents = pgTable("experiment_events", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  experimentId: integer("experiment_id").notNull(),
  variantId: integer("variant_id").notNull(),
  variantKey: text("variant_key").notNull(),
  eventName: text("event_name").notNull(),
  visitorId: text("visitor_id"),
  sessionId: text("session_id"),
  url: text("url"),
  referrer: text("referrer"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
