/**
 * Usage & analytics: month totals vs last month, charts per day of the month or per hour of
 * the last 48 hours (requests, bandwidth, hit ratio, edge and origin latency), status codes,
 * top paths, AI.
 */
import type { TenantAreaPage } from "./shell.tsx";
import { BarChart } from "../../../components/charts/BarChart.tsx";
import { Bytes, Empty, Stat, TableWrap } from "../../../components/ui.tsx";
import { tenantAnalytics } from "../../../lib/usage/analytics.ts";
import {
  currentPeriod,
  type Latency,
  PERIOD_RE,
  tenantPeriodLatency,
} from "../../../lib/usage/query.ts";
import {
  hourCharts,
  type LatencySeries,
  usageCharts,
} from "../../../lib/dashboard/usage_charts.ts";
import { formatBytes, formatCount, formatPercent } from "../../../lib/dashboard/format.ts";
import { savedByCache } from "../../../lib/usage/figures.ts";
import { tenantAccountQuota } from "../../../lib/billing/tenant_quota.ts";
import { TenantQuotaNotice } from "../../../components/TenantQuotaNotice.tsx";
import { SavingsStat } from "../../../components/SavingsStat.tsx";

/** "+12 %" / "-3 %" against last month, or "new" when last month had none. */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new this month";
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? "+" : "\u2212"}${Math.abs(pct).toFixed(0)} % vs last month`;
}

/** "12.5 ms", "1.2 s", "0 ms". */
const formatMs = (n: number) =>
  n >= 1000
    ? `${(n / 1000).toFixed(1)} s`
    : `${n === 0 || n >= 10 ? Math.round(n) : n.toFixed(1)} ms`;

/** Edge and origin latency charts over the same labels, p50/p95/p99 side by side. */
function LatencyCharts(
  { labels, latency, per, shortLabel }: {
    labels: string[];
    latency: LatencySeries;
    per: string;
    shortLabel?: (l: string) => string;
  },
) {
  const series = (q: LatencySeries["edge"]) => [
    { name: "p50", values: q.p50 },
    { name: "p95", values: q.p95 },
    { name: "p99", values: q.p99 },
  ];
  return (
    <>
      <BarChart
        title={`Edge latency per ${per} (request in \u2192 headers out)`}
        name={`edge-latency-${per}`}
        labels={labels}
        shortLabel={shortLabel}
        series={series(latency.edge)}
        format={formatMs}
        empty="No requests measured"
      />
      <BarChart
        title={`Origin latency per ${per} (requests that reached the origin)`}
        name={`origin-latency-${per}`}
        labels={labels}
        shortLabel={shortLabel}
        series={series(latency.origin)}
        format={formatMs}
        empty="No origin requests measured"
      />
    </>
  );
}

/** "4.0 · 38 · 120 ms" for the month's quantiles, "-" when nothing was measured. */
function quantileText(q: Latency["edge"]): string {
  if (!q) return "\u2014";
  const all = [q.p50Ms, q.p95Ms, q.p99Ms];
  if (all.some((v) => v >= 1000)) return all.map(formatMs).join(" · ");
  return `${all.map((v) => formatMs(v).slice(0, -3)).join(" · ")} ms`;
}

type Analytics = Awaited<ReturnType<typeof tenantAnalytics>>;
type Charts = Awaited<ReturnType<typeof usageCharts>>;
type Hours = NonNullable<Awaited<ReturnType<typeof hourCharts>>>;

/** Previous month, the shown one, and back to the current month when another is shown. */
function MonthNav(
  { href, period, now, previous }: { href: string; period: string; now: string; previous: string },
) {
  return (
    <p class="actions">
      <span class="muted">Month:</span>
      <a href={`${href}/usage?period=${previous}`}>{`\u2190`} {previous}</a>
      <strong aria-current="true">{period}</strong>
      {period !== now && <a href={`${href}/usage`}>Current month {`\u2192`}</a>}
    </p>
  );
}

/** Per day of the month or per hour of the last 48 hours; the current view is not a link. */
function ChartToggle(
  { href, period, now, hourly }: { href: string; period: string; now: string; hourly: boolean },
) {
  const periodParam = period === now ? "" : `period=${period}&`;
  const views = [["days", `per day (${period})`], ["hours", "per hour (last 48 h)"]] as const;
  return (
    <p class="actions">
      <span class="muted">Charts:</span>
      {views.map(([v, label]) =>
        (v === "hours") === hourly
          ? <strong key={v} aria-current="true">{label}</strong>
          : <a key={v} href={`${href}/usage?${periodParam}view=${v}`}>{label}</a>
      )}
    </p>
  );
}

/** The month's days against last month's. */
function DayCharts(
  { charts, toggle, dayLabels, curName }: {
    charts: Charts;
    toggle: preact.JSX.Element;
    dayLabels: string[];
    curName: string;
  },
) {
  const prevName = `Last month (${charts.previousPeriod})`;
  return (
    <section class="card">
      {toggle}
      <BarChart
        title="Requests per day"
        name="requests-day"
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
      <LatencyCharts labels={dayLabels} latency={charts.current.latency} per="day" />
    </section>
  );
}

// "14:00" on the axis; the table and hover keep the full UTC hour
const hourLabel = (iso: string) => `${iso.slice(11, 16)}`;

/** The last 48 hours. */
function HourCharts({ hours, toggle }: { hours: Hours; toggle: preact.JSX.Element }) {
  return (
    <section class="card">
      {toggle}
      <BarChart
        title="Requests per hour"
        name="requests-hour"
        labels={hours.hours}
        shortLabel={hourLabel}
        series={[{ name: "Requests", values: hours.requests }]}
        format={formatCount}
        empty="No requests in the last 48 hours"
      />
      <BarChart
        title="Bandwidth per hour"
        labels={hours.hours}
        shortLabel={hourLabel}
        series={[{ name: "Bandwidth", values: hours.bytes }]}
        format={formatBytes}
        empty="No bandwidth in the last 48 hours"
      />
      <BarChart
        title="Cache hit ratio per hour"
        labels={hours.hours}
        shortLabel={hourLabel}
        series={[{ name: "Hit ratio", values: hours.hitRatio }]}
        format={(n) => formatPercent(n, 0)}
        empty="No requests in the last 48 hours"
      />
      <LatencyCharts
        labels={hours.hours}
        latency={hours.latency}
        per="hour"
        shortLabel={hourLabel}
      />
    </section>
  );
}

/** The month's figures, each against last month where that means something. */
function FigureCards({ a, latency, cms }: { a: Analytics; latency: Latency; cms: string }) {
  const saved = savedByCache(a.totals);
  return (
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
      <SavingsStat cms={cms} savedBytes={saved.bytes} />
      <Stat
        label="Edge latency p50 · p95 · p99"
        value={quantileText(latency.edge)}
      />
      <Stat
        label="Origin latency p50 · p95 · p99"
        value={quantileText(latency.origin)}
      />
    </div>
  );
}

/** The month's busiest paths by exact counters, with a meter against the busiest. */
function TopPaths({ paths }: { paths: Analytics["topPaths"] }) {
  if (paths.length === 0) return <p class="muted">No requests counted this month.</p>;
  const pathMax = Math.max(1, ...paths.map((p) => p.requests));
  return (
    <TableWrap label="Top paths">
      <thead>
        <tr>
          <th>Path</th>
          <th class="num">Requests</th>
          <th class="num">Errors</th>
          <th class="num">Bytes</th>
          <th>Share</th>
        </tr>
      </thead>
      <tbody>
        {paths.map((p) => (
          <tr key={p.path} data-path={p.path}>
            <td>
              <code>{p.path}</code>
            </td>
            <td class="num">
              {p.overcount > 0 ? "\u2264 " : ""}
              {formatCount(p.requests)}
            </td>
            <td class="num">{formatCount(p.errors)}</td>
            <td class="num">
              <Bytes n={p.bytes} />
            </td>
            <td>
              <meter min={0} max={pathMax} value={p.requests} aria-label={`${p.path} requests`}>
                {p.requests}
              </meter>
            </td>
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}

/** Status classes and the top paths. */
function StatusAndPaths({ a }: { a: Analytics }) {
  return (
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
      <h3>Top paths</h3>
      <p class="muted">
        Every request counted per path and day (the 1,000 busiest paths of each day are kept; a
        count marked {`\u2264`} may include requests of paths it replaced).
      </p>
      <TopPaths paths={a.topPaths} />
    </section>
  );
}

/** AI tokens per day of the month. */
function AiTokens(
  { a, charts, dayLabels, href }: {
    a: Analytics;
    charts: Charts;
    dayLabels: string[];
    href: string;
  },
) {
  return (
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
        <a href={`${href}/ai`}>AI transforms</a>.
      </p>
    </section>
  );
}

export const usagePage: TenantAreaPage = async (t) => {
  const now = currentPeriod(t.s.clock.now());
  const asked = t.c.req.query("period") ?? "";
  const period = PERIOD_RE.test(asked) && asked <= now ? asked : now;
  const hourly = t.c.req.query("view") === "hours";
  const [a, charts, latency, hours, account] = await Promise.all([
    tenantAnalytics(t.s, t.tenant.id, period),
    usageCharts(t.s, t.tenant.id, period),
    tenantPeriodLatency(t.s, t.tenant.id, period),
    hourly ? hourCharts(t.s, t.tenant.id) : null,
    tenantAccountQuota(t.s, t.tenant.id),
  ]);
  const dayLabels = charts.current.days.map((d) => String(Number(d.slice(8))));
  const curName = period === now ? `This month (${period})` : period;
  const nav = <MonthNav href={t.href} period={period} now={now} previous={charts.previousPeriod} />;
  const toggle = <ChartToggle href={t.href} period={period} now={now} hourly={hourly} />;
  if (a.totals.requests === 0 && a.previous.requests === 0 && a.ai.totalTokens === 0) {
    return (
      <>
        {nav}
        <Empty title="No traffic yet" name="traffic">
          Send requests to <code>{t.view.proxyBase}/~api/{`\u2026`}</code>{" "}
          (configure the origin under{" "}
          <a href={`${t.href}/api`}>API proxy</a>); requests, bandwidth and cache hits are charted
          here within a minute.
        </Empty>
      </>
    );
  }
  return (
    <>
      <TenantQuotaNotice quota={account?.quota ?? null} isOwner={account?.ownerId === t.userId} />
      {nav}
      <FigureCards a={a} latency={latency} cms={t.view.cms} />
      {hours
        ? <HourCharts hours={hours} toggle={toggle} />
        : <DayCharts charts={charts} toggle={toggle} dayLabels={dayLabels} curName={curName} />}
      <StatusAndPaths a={a} />
      <AiTokens a={a} charts={charts} dayLabels={dayLabels} href={t.href} />
    </>
  );
};
