/** A month picker for admin pages: a GET form (it only chooses what to read). */
export function PeriodPicker({ action, period }: { action: string; period: string }) {
  return (
    <form method="get" action={action} class="row" aria-label="Choose the month">
      <div class="field">
        <label for="period">Month (UTC)</label>
        <input id="period" name="period" type="month" value={period} required />
      </div>
      <button type="submit" class="secondary">Show</button>
    </form>
  );
}
