/**
 * A tenant's requests and bandwidth per UTC month: two table cells for the tenants list, and
 * this month next to last month for the tenant page. Self-contained: give it PeriodUsage rows
 * (lib/usage/query.ts), null for a month without traffic.
 */
import type { PeriodUsage } from "../lib/usage/query.ts";
import { Bytes, Stat } from "./ui.tsx";
import { formatCount } from "../lib/dashboard/format.ts";

export function TenantMonthCells({ usage }: { usage: PeriodUsage | null | undefined }) {
  return (
    <>
      <td data-month-requests="">{formatCount(usage?.requests ?? 0)}</td>
      <td data-month-bytes="">
        <Bytes n={usage?.bytes ?? 0} />
      </td>
    </>
  );
}

export function TenantMonthStats(
  { current, previous }: { current: PeriodUsage; previous: PeriodUsage },
) {
  return (
    <div class="cards" data-tenant-months="">
      <Stat label={`Requests, ${current.period}`} value={formatCount(current.requests)} />
      <Stat label={`Bandwidth, ${current.period}`} value={<Bytes n={current.bytes} />} />
      <Stat label={`Requests, ${previous.period}`} value={formatCount(previous.requests)} />
      <Stat label={`Bandwidth, ${previous.period}`} value={<Bytes n={previous.bytes} />} />
    </div>
  );
}
