/** GET /admin: platform figures for a month, bandwidth and requests per day, top tenants. */
import type { AdminCtx } from "./shell.tsx";
import { adminOverview } from "../../../lib/admin/overview.ts";
import { bandwidthDaily } from "../../../lib/admin/daily.ts";
import { currentPeriod, PERIOD_RE, periodRange } from "../../../lib/usage/query.ts";
import { addDays } from "../../../lib/usage/days.ts";
import { badRequest } from "../../../lib/errors.ts";
import { BarChart } from "../../../components/charts/BarChart.tsx";
import { Bytes, Empty, Stat, TableWrap } from "../../../components/ui.tsx";
import { formatBytes, formatCount, formatPercent } from "../../../lib/dashboard/format.ts";
import { PeriodPicker } from "../../../components/admin/PeriodPicker.tsx";

/** The `period` query (YYYY-MM), default the current UTC month; 400 naming it when malformed. */
export function periodParam(a: AdminCtx): string {
  const raw = a.c.req.query("period");
  if (raw === undefined || raw === "") return currentPeriod(a.s.clock.now());
  if (!PERIOD_RE.test(raw)) throw badRequest("Invalid period: must be YYYY-MM");
  return raw;
}

// Long: one page's markup: the month picker, eight figure cards, two per-day charts and the top-
// tenants table; the figures come ready from lib/admin, so what is long is the markup.
export async function adminOverviewPage(a: AdminCtx) {
  const period = periodParam(a);
  const o = await adminOverview(a.s, period);
  const { from, to } = periodRange(period);
  const daily = await bandwidthDaily(a.s, { from, to: addDays(to, -1) });
  const labels = daily.points.map((p) => p.day);
  const day = (d: string) => d.slice(8, 10);
  return (
    <>
      <PeriodPicker action="/admin" period={period} current={currentPeriod(a.s.clock.now())} />
      <div class="cards">
        <Stat label="Users" value={`${formatCount(o.users.total)}`} />
        <Stat label="Blocked users" value={formatCount(o.users.blocked)} />
        <Stat label="Tenants" value={formatCount(o.tenants.total)} />
        <Stat label={`New tenants in ${period}`} value={formatCount(o.tenants.createdInPeriod)} />
        <Stat label="Requests" value={formatCount(o.usage.requests)} />
        <Stat label="Bandwidth" value={<Bytes n={o.usage.bytes} />} />
        <Stat label="Cache hit ratio" value={formatPercent(o.usage.cacheHitRatio)} />
        <Stat label="Errors" value={formatCount(o.usage.errors)} />
        <Stat
          label="AI tokens (in + out)"
          value={formatCount(o.ai.inputTokens + o.ai.outputTokens)}
        />
      </div>
      <section class="card">
        <h2>Traffic per day</h2>
        <BarChart
          title={`Bandwidth per day, ${period} (UTC days)`}
          labels={labels}
          shortLabel={day}
          series={[{ name: "Bandwidth", values: daily.points.map((p) => p.bytes) }]}
          format={formatBytes}
          empty="No traffic recorded in this month yet."
        />
        <BarChart
          title={`Requests per day, ${period} (UTC days)`}
          labels={labels}
          shortLabel={day}
          series={[{ name: "Requests", values: daily.points.map((p) => p.requests) }]}
          format={formatCount}
          empty="No requests recorded in this month yet."
        />
      </section>
      <section class="card">
        <h2>Top tenants by requests</h2>
        {o.topTenants.length === 0
          ? (
            <Empty title="No tenant traffic this month" name="tenant-traffic">
              Traffic appears here once a tenant's proxy host serves requests (usage is flushed
              every few seconds).
            </Empty>
          )
          : (
            <TableWrap label="Top tenants">
              <thead>
                <tr>
                  <th scope="col">Tenant</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Bandwidth</th>
                  <th scope="col">Earned</th>
                </tr>
              </thead>
              <tbody>
                {o.topTenants.map((t) => (
                  <tr key={t.slug}>
                    <td>
                      <a href={`/dashboard/${encodeURIComponent(t.slug)}`}>{t.slug}</a>
                    </td>
                    <td>{formatCount(t.requests)}</td>
                    <td>
                      <Bytes n={t.bytes} />
                    </td>
                    <td>
                      <a
                        href={`/admin/tenants/${encodeURIComponent(t.slug)}?period=${period}`}
                        aria-label={`Revenue and cost of ${t.slug}`}
                      >
                        Revenue and cost
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
      </section>
    </>
  );
}
