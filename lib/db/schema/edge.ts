/** Drizzle tables mirroring migrations/0007_edge_projection.sql. */
import { bigint, bigserial, boolean, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./core.ts";
import type { Announced, TimedAnnouncement } from "../../kv/snapshot.ts";

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

/**
 * Purges by URL, prefix or tag, newest MAX_PURGE_RECORDS per tenant, carried in
 * the edge snapshot: an object stored before `atMs` that one matches is a miss.
 */
export const cachePurges = pgTable("cache_purges", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  atMs: bigint("at_ms", { mode: "number" }).notNull(),
  urls: jsonb("urls").$type<string[]>().notNull(),
  prefixes: jsonb("prefixes").$type<string[]>().notNull(),
  tags: jsonb("tags").$type<string[]>().notNull(),
  /** Entity purges: what the webhook announced (edge/publish_revisions.ts). */
  announced: jsonb("announced").$type<Announced>(),
  /** Merged records: each tag's own purge time, parallel to `tags` (null: all at `atMs`). */
  tagTimes: jsonb("tag_times").$type<number[]>(),
  /** Merged records: the merged entity purges' announcements, each at its own time. */
  announcements: jsonb("announcements").$type<TimedAnnouncement[]>(),
});
