/**
 * tenants.settings changed key by key in the UPDATE statement itself: concurrent
 * requests that change different keys (api-config, AI limits, asset options) never
 * undo each other, as a read-modify-write of the whole JSON would.
 */
import { type SQL, sql } from "drizzle-orm";
import { tenants } from "../db/schema/mod.ts";

/**
 * `settings = (settings - removed...) || set` for an update's `.set({ settings })`; keys
 * whose value is undefined are removed. Returns null when there is nothing to change.
 */
export function settingsPatch(patch: Record<string, unknown>): SQL | null {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const removed = Object.keys(patch).filter((k) => patch[k] === undefined);
  if (Object.keys(set).length === 0 && removed.length === 0) return null;
  let expr = sql`${tenants.settings}`;
  for (const k of removed) expr = sql`(${expr} - ${k}::text)`;
  return sql`${expr} || ${JSON.stringify(set)}::jsonb`;
}
