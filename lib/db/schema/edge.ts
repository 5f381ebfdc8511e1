/** Drizzle tables mirroring migrations/0007_edge_projection.sql. */
import { bigint, boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./core.ts";

/** Per-slug generation of edge-relevant state and the generation KV is known to hold. */
export const edgeChanges = pgTable("edge_changes", {
  slug: text("slug").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  generation: bigint("generation", { mode: "number" }).notNull().default(1),
  projectedGeneration: bigint("projected_generation", { mode: "number" }).notNull().default(0),
  changedAt: ts("changed_at").notNull().defaultNow(),
});

/** The database's installation id (one row). */
export const installation = pgTable("installation", {
  singleton: boolean("singleton").primaryKey().default(true),
  id: text("id").notNull(),
});
