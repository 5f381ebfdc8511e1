/**
 * The response shape of `billingView` (lib/billing/state.ts): an account's plan, status and,
 * where the route reads the month, its usage and overage. Kept next to the builder; response
 * validation in the tests checks they agree (docs/architecture.md "Declaring an API route").
 */
import { z } from "zod";
import { PLAN_CODES } from "./plans.ts";

const amounts = z.strictObject({
  requests: z.number().int(),
  bytes: z.number().int(),
  usd: z.number(),
});

export const billingViewSchema = z.strictObject({
  enabled: z.boolean().describe("Whether the payment provider is configured"),
  plan: z.enum(PLAN_CODES),
  status: z.string().describe("The subscription status, `none` before any"),
  quotas: z.boolean().describe("false with QUOTAS=off"),
  limits: z.strictObject({
    tenants: z.number().int().nullable().describe("null is unlimited"),
    monthlyRequests: z.number().int(),
    monthlyBytes: z.number().int(),
    overLimit: z.enum(["pause", "meter"]),
    priceUsd: z.number(),
  }).nullable().describe("null with QUOTAS=off"),
  usage: z.strictObject({
    period: z.string(),
    requests: z.number().int(),
    bytes: z.number().int(),
    percent: z.strictObject({ requests: z.number(), bytes: z.number() }).nullable(),
    level: z.union([z.literal(0), z.literal(80), z.literal(100)]),
    reason: z.enum(["requests", "bandwidth"]).nullable(),
    paused: z.boolean(),
    resumesAt: z.string().describe("ISO 8601 time"),
  }).optional().describe("GET /api/billing/state only"),
  overage: z.strictObject({ period: z.string(), toDate: amounts, projected: amounts })
    .nullable().optional().describe("GET /api/billing/state only; null on plans that pause"),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  adminOverride: z.boolean(),
  hasCustomer: z.boolean(),
  updatedAt: z.string().nullable(),
});
