/**
 * Activation validation (SPEC "AI experiment status": variant count, profile existence,
 * route overlap). Returns every reason, so the 400 can list them all.
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Db } from "../db/client.ts";
import { experiments } from "../db/schema/mod.ts";
import { listActiveProfiles } from "../ai/profiles.ts";
import { type RouteMatch, routesOverlap } from "./route.ts";
import { MIN_VARIANTS } from "./schema.ts";

export const MIN_ACTIVE_VARIANTS = MIN_VARIANTS;

export async function activationProblems(
  s: Services,
  tx: Db,
  e: { id: number; tenantId: number; routePattern: string; routeMatch: RouteMatch },
  variants: Array<{ key: string; transformProfile: string | null }>,
): Promise<string[]> {
  const reasons: string[] = [];
  if (variants.length < MIN_ACTIVE_VARIANTS) {
    reasons.push(`at least ${MIN_ACTIVE_VARIANTS} variants are required (has ${variants.length})`);
  }
  const wanted = [...new Set(variants.map((v) => v.transformProfile).filter((p) => p !== null))];
  if (wanted.length > 0) {
    // Read through the caller's transaction: PGlite has one connection, so a query on
    // s.db while the transaction is open would wait for it forever.
    const active = new Set(await listActiveProfiles({ ...s, db: tx }, e.tenantId));
    for (const p of wanted) {
      if (!active.has(p)) reasons.push(`profile "${p}" has no active rule`);
    }
  }
  const others = await tx.select({
    id: experiments.id,
    name: experiments.name,
    routePattern: experiments.routePattern,
    routeMatch: experiments.routeMatch,
  }).from(experiments).where(and(
    eq(experiments.tenantId, e.tenantId),
    // A promoted experiment still serves its route (its winner to everyone).
    inArray(experiments.status, ["active", "promoted"]),
    ne(experiments.id, e.id),
  ));
  for (const o of others) {
    if (
      routesOverlap(
        { pattern: e.routePattern, match: e.routeMatch },
        { pattern: o.routePattern, match: o.routeMatch },
      )
    ) {
      reasons.push(
        `route ${e.routeMatch} "${e.routePattern}" overlaps active experiment ${o.id} ` +
          `(${o.routeMatch} "${o.routePattern}")`,
      );
    }
  }
  return reasons;
}
