/** Drizzle table definitions mirroring migrations/0006_billing.sql. */
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  integer,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { ts } from "./core.ts";
import type { PlanCode } from "../../billing/plans.ts";

export const billingAccounts = pgTable("billing_accounts", {
  userId: text("user_id").primaryKey(),
  planCode: text("plan_code").$type<PlanCode>().notNull().default("free"),
  /** Payment-provider subscription status, or `none` before any subscription. */
  status: text("status").notNull().default("none"),
  stripeCustomerId: text("stripe_customer_id").unique(),
  stripeSubscriptionId: text("stripe_subscription_id"),
  currentPeriodEnd: ts("current_period_end"),
  cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
  adminOverride: boolean("admin_override").notNull().default(false),
  /** When planCode last changed (custom domains of a downgraded account keep a grace period). */
  planChangedAt: ts("plan_changed_at"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Metered overage sent to the payment provider: one row per account per UTC day (0009_quotas.sql). */
export const overageReports = pgTable("overage_reports", {
  userId: text("user_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  period: text("period").notNull(),
  /** Overage requests and bytes this report adds to the month (deltas). */
  requests: bigint("requests", { mode: "number" }).notNull(),
  bytes: bigint("bytes", { mode: "number" }).notNull(),
  amountUsd: doublePrecision("amount_usd").notNull(),
  status: text("status").$type<"pending" | "reported" | "failed">().notNull().default("pending"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  nextAttemptAt: ts("next_attempt_at"),
  reportedAt: ts("reported_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.userId, t.day] })]);
