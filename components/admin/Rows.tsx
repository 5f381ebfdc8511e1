/** Label/value rows of an admin figure list: timestamps localised, counts grouped, - for none. */
import { Time } from "../ui.tsx";
import { formatCount } from "../../lib/dashboard/format.ts";

export function Rows({ rows }: { rows: [string, unknown][] }) {
  return (
    <dl class="grid">
      {rows.map(([k, v]) => [
        <dt key={`${k}-t`}>{k}</dt>,
        <dd key={`${k}-d`}>
          {v === null || v === undefined
            ? <span class="muted">{`\u2014`}</span>
            : typeof v === "string" &&
                /^\d{4}-\d\d-\d\dT/.test(v)
            ? <Time at={v} />
            : typeof v === "boolean"
            ? (v ? "yes" : "no")
            : typeof v === "number"
            ? formatCount(v)
            : String(v)}
        </dd>,
      ])}
    </dl>
  );
}
