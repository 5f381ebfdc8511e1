/** Drizzle table definitions mirroring migrations/0006_billing.sql. */
import { boolean, pgTable, text } from "drizzle-orm/pg-core";
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
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
