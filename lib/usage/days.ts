/**
 * UTC calendar days as `YYYY-MM-DD` strings: validation, arithmetic, zero-filled series,
 * and the inclusive day ranges of the bandwidth reports (tenant and master admin).
 */
import { badRequest } from "../errors.ts";

const DAY_MS = 86_400_000;

/** Days a bandwidth report covers when no bound is given, and at most. */
export const BANDWIDTH_DEFAULT_DAYS = 30;
export const BANDWIDTH_MAX_DAYS = 366;

/** True for a real UTC calendar day in `YYYY-MM-DD` form (2026-02-30 is not). */
export function isUtcDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/** The UTC day containing `ms`, as `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * `utcDay` over a stream of timestamps: a day's name is formatted once, not per call (the usage
 * aggregator's per-request path; a Date and its ISO string per request showed in profiles).
 */
export class UtcDayNames {
  #start = Number.NaN;
  #end = Number.NaN;
  #name = "";

  of(ms: number): string {
    if (!(ms >= this.#start && ms < this.#end)) {
      this.#start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.#end = this.#start + DAY_MS;
      this.#name = utcDay(this.#start);
    }
    return this.#name;
  }
}

export function addDays(day: string, n: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** Every day from `from` to `to`, both included. */
export function daysInclusive(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
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

/** SPEC's "400 invalid range", naming the offending bound in details.fields. */
export function rangeError(field: string, message: string) {
  return badRequest(`Invalid range: ${message}`, { fields: [{ path: field, message }] });
}

/**
 * The inclusive day range of a bandwidth report: none given is the last 30 days ending
 * today (UTC); one bound anchors the other (from alone runs 30 days, never past today).
 */
export function resolveDayRange(now: number, from?: string, to?: string) {
  const today = utcDay(now);
  const anchoredTo = from === undefined
    ? today
    : min(addDays(from, BANDWIDTH_DEFAULT_DAYS - 1), today);
  const end = to ?? anchoredTo;
  const start = from ?? addDays(end, -(BANDWIDTH_DEFAULT_DAYS - 1));
  if (start > end) throw rangeError("from", "from must not be after to");
  const days = daysInclusive(start, end).length;
  if (days > BANDWIDTH_MAX_DAYS) {
    throw rangeError("to", `spans ${days} days, at most ${BANDWIDTH_MAX_DAYS} allowed`);
  }
  return { from: start, to: end };
}

const min = (a: string, b: string) => a < b ? a : b;
