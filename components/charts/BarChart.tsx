/**
 * A bar chart rendered on the server as SVG (no chart library, no script): one or more
 * series over the same categories (days, variants), side by side. Colours come from the
 * design tokens through classes (no inline styles under the CSP); every bar carries a
 * <title> for hover, and the numbers are also in a table behind "Show data".
 */
import { labelEvery, niceMax, ticks } from "./scale.ts";

export type ChartSeries = { name: string; values: number[] };

export type BarChartProps = {
  /** What the chart shows; the accessible name of the figure. */
  title: string;
  /** Which figure this is (`data-chart`), so tests find it by structure, not by its title. */
  name?: string;
  /** One label per category (x axis), e.g. days `2026-11-01`. */
  labels: string[];
  series: ChartSeries[];
  /** How values are written (axis, hover, table): bytes, counts, percentages. */
  format?: (n: number) => string;
  /** Shorter category labels on the axis (the table and hover keep the full label). */
  shortLabel?: (label: string) => string;
  /**
   * The axis maximum for the data's maximum (default: 1, 2, 2.5 or 5 × 10^k, which is nice in
   * decimal byte units too: 130 MB -> 200 MB).
   */
  scaleMax?: (max: number) => number;
  /** Shown instead of an empty plot when every value is 0. */
  empty?: string;
};

const W = 640;
const H = 220;
const PAD = { left: 64, right: 8, top: 10, bottom: 26 };

/** The chart's numbers as a table, for screen readers and for reading exact values. */
function ChartData({ p, format }: { p: BarChartProps; format: (n: number) => string }) {
  return (
    <details class="chart-data">
      <summary>Show data</summary>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{p.labels.length ? "Category" : ""}</th>
              {p.series.map((s) => <th key={s.name} scope="col">{s.name}</th>)}
            </tr>
          </thead>
          <tbody>
            {p.labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {p.series.map((s) => <td key={s.name}>{format(s.values[i] ?? 0)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function BarChart(p: BarChartProps) {
  const format = p.format ?? ((n: number) => n.toLocaleString("en"));
  const short = p.shortLabel ?? ((l: string) => l);
  const all = p.series.flatMap((s) => s.values);
  // Byte charts get byte-nice ticks (25 MB, not 23.8 MB) without every caller asking.
  const scale = p.scaleMax ?? niceMax;
  const max = scale(Math.max(0, ...all));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, p.labels.length);
  const barW = Math.max(1, (slot * 0.8) / Math.max(1, p.series.length));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const show = labelEvery(p.labels.length);
  const isEmpty = all.every((v) => v === 0);
  return (
    <figure class="chart" data-chart={p.name}>
      <figcaption>{p.title}</figcaption>
      {isEmpty && p.empty
        ? <p class="empty" data-empty="chart">{p.empty}</p>
        : (
          <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={p.title}>
            {ticks(max).map((t) => (
              <g key={t} class="tick">
                <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
                <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end">{format(t)}</text>
              </g>
            ))}
            {p.labels.map((label, i) => (
              <g key={label}>
                {p.series.map((s, k) => {
                  const v = s.values[i] ?? 0;
                  const top = y(v);
                  return (
                    <rect
                      key={s.name}
                      class={`bar s${(k % 4) + 1}`}
                      x={PAD.left + i * slot + slot * 0.1 + k * barW}
                      y={top}
                      width={barW}
                      height={Math.max(0, PAD.top + plotH - top)}
                    >
                      <title>{`${s.name}, ${label}: ${format(v)}`}</title>
                    </rect>
                  );
                })}
                {show(i) && (
                  <text
                    class="xlabel"
                    x={PAD.left + i * slot + slot / 2}
                    y={H - 8}
                    text-anchor="middle"
                  >
                    {short(label)}
                  </text>
                )}
              </g>
            ))}
          </svg>
        )}
      {!(isEmpty && p.empty) && p.series.length > 1 && (
        <ul class="legend">
          {p.series.map((s, k) => (
            <li key={s.name}>
              <span class={`swatch s${(k % 4) + 1}`} aria-hidden="true"></span>
              {s.name}
            </li>
          ))}
        </ul>
      )}
      {!(isEmpty && p.empty) && <ChartData p={p} format={format} />}
    </figure>
  );
}
