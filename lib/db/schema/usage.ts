/** Drizzle table mirroring migrations/0010_fault_usage_flushes.sql. */
import { bigint, boolean, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./core.ts";

/** Idempotency keys of usage flushes (lib/usage/flush_keys.ts). */
export const usageFlushes = pgTable("usage_flushes", {
  instanceId: text("instance_id").notNull(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  counted: boolean("counted").notNull(),
  at: ts("at").notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.instanceId, t.seq] })]);
