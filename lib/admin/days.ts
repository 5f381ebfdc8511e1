/** UTC calendar days as `YYYY-MM-DD` strings: validation, arithmetic, zero-filled series. */

const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day in `YYYY-MM-DD` form (2026-02-30 is not). */
export function isDay(value: string): boolean {
  if (!DAY_RE.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** Days from `from` to `to`, both included (`to` ≥ `from`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Number of days from `from` to `to`, both included. */
export function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) +
    1;
}

/**
 * One point per day of `days`, taken from `rows` (keyed by their `day`) or zeros, so
 * a chart never has to guess whether a missing day means no traffic.
 */
export function zeroFill<K extends string>(
  days: string[],
  rows: ({ day: string } & Record<K, unknown>)[],
  fields: readonly K[],
): ({ day: string } & Record<K, number>)[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return days.map((day) => {
    const r = byDay.get(day);
    const point = { day } as { day: string } & Record<K, number>;
    for (const f of fields) (point as Record<string, unknown>)[f] = Number(r?.[f] ?? 0);
    return point;
  });
}
