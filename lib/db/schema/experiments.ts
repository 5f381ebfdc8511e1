/**
 * Drizzle table definitions mirroring migrations/0004_experiments.sql (AI experiments),
 * 0010 (guardrails) and 0012 (visitors).
 */
import {
  bigint,
  bigserial,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
} from "drizzle-orm/pg-core";
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

/** Guardrail thresholds; any subset. Rates are fractions (0.02 = 2 %), of visitors. */
export type Guardrails = {
  maxErrorRate?: number;
  maxP95Ms?: number;
  minConversionRate?: number;
  /** The goal event of minConversionRate (default: the exposure summary's default goal). */
  goal?: string;
  /** How much worse than control a variant's share of visitors may be (default 0.01). */
  margin?: number;
  /** Visitors each arm needs before any verdict (default 100). */
  minVisitors?: number;
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
  /** Guardrails judge visitors first seen from here (migration 0012; null: all kept). */
  guardrailSince: ts("guardrail_since"),
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
  /** The sender's visitor hash (IP and user agent, lib/experiments/visitor.ts). */
  visitorHash: bigint("visitor_hash", { mode: "number" }),
});

/** One visitor per experiment arm per window (migration 0012, lib/usage/visitor_windows.ts). */
export const experimentVisitors = pgTable("experiment_visitors", {
  experimentId: integer("experiment_id").notNull(),
  variantId: integer("variant_id").notNull(),
  variantKey: text("variant_key").notNull(),
  windowStart: ts("window_start").notNull(),
  visitorHash: bigint("visitor_hash", { mode: "number" }).notNull(),
  tenantId: integer("tenant_id").notNull(),
  networkHash: bigint("network_hash", { mode: "number" }).notNull(),
  firstSeenAt: ts("first_seen_at").notNull(),
  errored: boolean("errored").notNull().default(false),
  slowest: smallint("slowest").notNull().default(0),
}, (t) => [
  primaryKey({
    columns: [t.experimentId, t.variantId, t.variantKey, t.windowStart, t.visitorHash],
  }),
]);
