/** Usage & analytics: month totals vs last month, per-day charts, status codes, top paths, AI. */
import type { TenantAreaPage } from "./shell.tsx";
import { BarChart } from "../../../components/charts/BarChart.tsx";
import { Bytes, Empty, Stat, TableWrap } from "../../../components/ui.tsx";
import { tenantAnalytics } from "../../../lib/usage/analytics.ts";
import { currentPeriod, PERIOD_RE } from "../../../lib/usage/query.ts";
import { usageCharts } from "../../../lib/dashboard/usage_charts.ts";
import { formatBytes, formatCount, formatPercent } from "../../../lib/dashboard/format.ts";
import { savedByCache } from "../../../lib/usage/figures.ts";

/** "+12 %" / "−3 %" against last month, or "new" when last month had none. */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new this month";
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? "+" : "−"}${Math.abs(pct).toFixed(0)} % vs last month`;
}

export const usagePage: TenantAreaPage = async (t) => {
  const now = currentPeriod(t.s.clock.now());
  const asked = t.c.req.query("period") ?? "";
  const period = PERIOD_RE.test(asked) && asked <= now ? asked : now;
  const [a, charts] = await Promise.all([
    tenantAnalytics(t.s, t.tenant.id, period),
    usageCharts(t.s, t.tenant.id, period),
  ]);
  const saved = savedByCache(a.totals);
  const dayLabels = charts.current.days.map((d) => String(Number(d.slice(8))));
  const prevName = `Last month (${charts.previousPeriod})`;
  const curName = period === now ? `This month (${period})` : period;
  const pathMax = Math.max(1, ...a.sampled.topPaths.map((p) => p.requests));
  const nav = (
    <p class="actions">
      <span class="muted">Month:</span>
      <a href={`${t.href}/usage?period=${charts.previousPeriod}`}>← {charts.previousPeriod}</a>
      <strong aria-current="true">{period}</strong>
      {period !== now && <a href={`${t.href}/usage`}>Current month →</a>}
    </p>
  );
  if (a.totals.requests === 0 && a.previous.requests === 0 && a.ai.totalTokens === 0) {
    return (
      <>
        {nav}
        <Empty title="No traffic yet">
          Send requests to <code>{t.view.proxyBase}/~api/…</code> (configure the origin under{" "}
          <a href={`${t.href}/api`}>API proxy</a>); requests, bandwidth and cache hits are charted
          here within a minute.
        </Empty>
      </>
    );
  }
  return (
    <>
      {nav}
      <div class="cards">
        <Stat
          label={`Requests · ${change(a.totals.requests, a.previous.requests)}`}
          value={formatCount(a.totals.requests)}
        />
        <Stat
          label={`Bandwidth · ${change(a.totals.bytes, a.previous.bytes)}`}
          value={<Bytes n={a.totals.bytes} />}
        />
        <Stat label="Cache hit ratio" value={formatPercent(a.totals.cacheHitRatio)} />
        <Stat label="Error rate (5xx)" value={formatPercent(a.totals.errorRate)} />
        <Stat label="Origin requests saved" value={formatCount(saved.requests)} />
        <Stat label="Origin bandwidth saved" value={<Bytes n={saved.bytes} />} />
      </div>
      <section class="card">
        <BarChart
          title="Requests per day"
          labels={dayLabels}
          series={[
            { name: curName, values: charts.current.requests },
            { name: prevName, values: charts.previous.requests },
          ]}
          format={formatCount}
          empty="No requests this month or last"
        />
        <BarChart
          title="Bandwidth per day"
          labels={dayLabels}
          series={[
            { name: curName, values: charts.current.bytes },
            { name: prevName, values: charts.previous.bytes },
          ]}
          format={formatBytes}
          empty="No bandwidth this month or last"
        />
        <BarChart
          title="Cache hit ratio per day"
          labels={dayLabels}
          series={[{ name: "Hit ratio", values: charts.current.hitRatio }]}
          format={(n) => formatPercent(n, 0)}
          empty="No requests this month"
        />
      </section>
      <section class="card">
        <h2>Status codes and paths</h2>
        <p class="muted">{a.sampled.note}</p>
        <BarChart
          title="Status codes"
          labels={Object.keys(a.totals.statusClasses)}
          series={[{ name: "Requests", values: Object.values(a.totals.statusClasses) }]}
          format={formatCount}
          empty="No requests this month"
        />
        <h3>Top paths (sampled)</h3>
        {a.sampled.topPaths.length === 0
          ? <p class="muted">No sampled requests this month.</p>
          : (
            <TableWrap label="Top paths">
              <thead>
                <tr>
                  <th>Path</th>
                  <th class="num">Requests</th>
                  <th class="num">Bytes</th>
                  <th>Share</th>
                </tr>
              </thead>
              <tbody>
                {a.sampled.topPaths.map((p) => (
                  <tr key={p.path}>
                    <td>
                      <code>{p.path}</code>
                    </td>
                    <td class="num">{formatCount(p.requests)}</td>
                    <td class="num">
                      <Bytes n={p.bytes} />
                    </td>
                    <td>
                      <meter
                        min={0}
                        max={pathMax}
                        value={p.requests}
                        aria-label={`${p.path} requests`}
                      >
                        {p.requests}
                      </meter>
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
      </section>
      <section class="card">
        <BarChart
          title="AI tokens per day"
          labels={dayLabels}
          series={[
            { name: "Input tokens", values: charts.aiTokens.input },
            { name: "Output tokens", values: charts.aiTokens.output },
          ]}
          format={formatCount}
          empty="No AI transforms ran this month"
        />
        <p class="muted">
          {formatCount(a.ai.totalTokens)} tokens this month; caps and runs under{" "}
          <a href={`${t.href}/ai`}>AI transforms</a>.
        </p>
      </section>
    </>
  );
};
