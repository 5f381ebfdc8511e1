/**
 * A month picker for admin pages: a GET form (it only chooses what to read) offering the
 * last twelve UTC months, plus the shown one when it is older.
 */
import { previousPeriod } from "../../lib/usage/query.ts";

export function PeriodPicker(
  { action, period, current }: { action: string; period: string; current: string },
) {
  const months = [current];
  while (months.length < 12) months.push(previousPeriod(months[months.length - 1]));
  if (!months.includes(period)) months.push(period);
  return (
    <form method="get" action={action} class="row picker" aria-label="Choose the month">
      <div class="field">
        <label for="period">Month (UTC)</label>
        <select id="period" name="period">
          {months.map((m) => <option key={m} value={m} selected={m === period}>{m}</option>)}
        </select>
      </div>
      <button type="submit" class="secondary">Show</button>
    </form>
  );
}
