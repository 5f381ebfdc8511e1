/** Drizzle tables mirroring migrations/0017_fault_usage_flushes.sql and 0033_path_counts.sql. */
import { bigint, boolean, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./core.ts";

/** Idempotency keys of usage flushes (lib/usage/flush_keys.ts). */
export const usageFlushes = pgTable("usage_flushes", {
  instanceId: text("instance_id").notNull(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  counted: boolean("counted").notNull(),
  at: ts("at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.instanceId, t.seq] })]);

/** Requests per path per tenant-day, the busiest 1,000 of each (migrations/0033_path_counts.sql). */
export const pathCounts = pgTable("path_counts", {
  tenantId: integer("tenant_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  path: text("path").notNull(),
  requests: bigint("requests", { mode: "number" }).notNull().default(0),
  errors: bigint("errors", { mode: "number" }).notNull().default(0),
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  overcount: bigint("overcount", { mode: "number" }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.tenantId, t.day, t.path] })]);
