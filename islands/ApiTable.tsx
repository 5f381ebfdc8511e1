/** Fetches a JSON list from the API in the browser and renders it as a table. */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { callApi } from "./api.ts";

export type ApiTableProps = {
  url: string;
  /** Key of the array in the JSON answer, e.g. `rules`. */
  itemsKey: string;
  columns: { key: string; label: string }[];
  empty: string;
};

function cell(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export function ApiTable(props: ApiTableProps) {
  const rows = useSignal<Record<string, unknown>[] | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    callApi("GET", props.url).then((r) => {
      if (!r.ok) error.value = r.message;
      else {rows.value = ((r.body as Record<string, unknown>)[props.itemsKey] ?? []) as Record<
          string,
          unknown
        >[];}
    });
  }, [props.url]);
  if (error.value) return <p class="error">{error.value}</p>;
  if (rows.value === null) return <p class="muted">Loading…</p>;
  if (rows.value.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <table>
      <thead>
        <tr>{props.columns.map((c) => <th key={c.key}>{c.label}</th>)}</tr>
      </thead>
      <tbody>
        {rows.value.map((r, i) => (
          <tr key={i}>{props.columns.map((c) => <td key={c.key}>{cell(r[c.key])}</td>)}</tr>
        ))}
      </tbody>
    </table>
  );
}
