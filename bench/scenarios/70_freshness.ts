/** Publish → fresh across four real instances (bench/freshness.ts); needs PostgreSQL. */
import type { Scenario } from "../types.ts";
import { measureFreshness } from "../freshness.ts";

export const scenario: Scenario = {
  name: "freshness",
  async run(ctx) {
    const databaseUrl = Deno.env.get("BENCH_DATABASE_URL");
    if (!databaseUrl) {
      return {
        title: "Publish → fresh across instances (bench/freshness.ts)",
        rows: [],
        notes: ["skipped: needs BENCH_DATABASE_URL (four processes cannot share PGlite)"],
      };
    }
    return await measureFreshness({ databaseUrl, log: ctx.log });
  },
};
