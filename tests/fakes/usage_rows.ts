/** Seeds `usage_daily` rows directly, for tests of the reports that read them. */
import type { TestApp } from "../harness.ts";

export type UsageDayRow = {
  day: string;
  requests: number;
  bytes: number;
  hits?: number;
  misses?: number;
  stale?: number;
  bypass?: number;
  errors?: number;
};

export async function seedUsageDays(app: TestApp, tenantId: number, days: UsageDayRow[]) {
  for (const d of days) {
    await app.services.dbHandle.exec(
      `INSERT INTO usage_daily (tenant_id, day, requests, bytes, hits, misses, stale, bypass, errors)
       VALUES (${tenantId}, '${d.day}', ${d.requests}, ${d.bytes}, ${d.hits ?? 0},
         ${d.misses ?? 0}, ${d.stale ?? 0}, ${d.bypass ?? 0}, ${d.errors ?? 0})`,
    );
  }
}
