/**
 * AI transform preview: sample JSON in, original and transformed side by side with the
 * changed fields highlighted. Without JavaScript the form still posts (through the form
 * bridge), and the outcome names the status and the transformed document.
 */
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { callApi } from "./api.ts";
import { changedPaths } from "./json_diff.ts";

export type PreviewPanelProps = {
  /** `/api/tenants/<slug>/ai-transform/preview` */
  api: string;
  rules: { id: number; label: string }[];
  sample: string;
  back: string;
};

type Result = {
  original: unknown;
  transformed: unknown;
  status: string;
  usage: { totalTokens: number };
};

/** Pretty JSON with the leaves in `mark` highlighted. */
function JsonView({ value, mark, path = "", indent = 0 }: {
  value: unknown;
  mark: Set<string>;
  path?: string;
  indent?: number;
}): ComponentChildren {
  const pad = "  ".repeat(indent + 1);
  const end = "  ".repeat(indent);
  if (value !== null && typeof value === "object") {
    const arr = Array.isArray(value);
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return arr ? "[]" : "{}";
    return (
      <>
        {arr ? "[" : "{"}
        {"\n"}
        {entries.map(([k, v], i) => (
          <span key={k}>
            {pad}
            {arr ? "" : `${JSON.stringify(k)}: `}
            <JsonView value={v} mark={mark} path={path ? `${path}.${k}` : k} indent={indent + 1} />
            {i < entries.length - 1 ? "," : ""}
            {"\n"}
          </span>
        ))}
        {end}
        {arr ? "]" : "}"}
      </>
    );
  }
  const text = JSON.stringify(value);
  return mark.has(path) ? <mark class="changed">{text}</mark> : text;
}

export function PreviewPanel(p: PreviewPanelProps) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const result = useSignal<Result | null>(null);

  async function onSubmit(e: Event) {
    e.preventDefault();
    if (busy.value) return;
    const data = new FormData(e.currentTarget as HTMLFormElement);
    let sample: unknown;
    try {
      sample = JSON.parse(String(data.get("sample:json") ?? ""));
    } catch {
      error.value = "Invalid sample: not valid JSON";
      return;
    }
    busy.value = true;
    error.value = null;
    const r = await callApi("POST", p.api, { ruleId: Number(data.get("ruleId:number")), sample });
    busy.value = false;
    if (r.status === 401) {
      location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
      return;
    }
    if (!r.ok) {
      error.value = r.message;
      result.value = null;
    } else result.value = r.body as Result;
  }

  const res = result.value;
  const mark = res ? changedPaths(res.original, res.transformed) : new Set<string>();
  return (
    <div>
      <form method="post" action="/forms" class="form" onSubmit={onSubmit} aria-label="Preview">
        <input type="hidden" name="_api" value={p.api} />
        <input type="hidden" name="_back" value={p.back} />
        <input type="hidden" name="_done" value="Preview {status}: {transformed}" />
        <div class="field">
          <label for="preview-rule">Rule</label>
          <select id="preview-rule" name="ruleId:number">
            {p.rules.map((r) => <option key={r.id} value={r.id}>{r.label}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="preview-sample">Sample JSON (as your API returns it)</label>
          <textarea id="preview-sample" name="sample:json" rows={8}>{p.sample}</textarea>
        </div>
        <button type="submit" disabled={busy.value} aria-busy={busy.value ? "true" : undefined}>
          {busy.value ? "Running preview\u2026" : "Run preview"}
        </button>
      </form>
      <div aria-live="polite">
        {error.value && (
          <p class="notice error" role="alert">
            <strong>Failed:</strong> {error.value}
          </p>
        )}
        {res && (
          <>
            <p class="notice ok">
              Preview {res.status}: {mark.size} field(s) changed, {res.usage.totalTokens} tokens.
            </p>
            <div class="grid2">
              <section aria-label="Original">
                <h3>Original</h3>
                <pre><JsonView value={res.original} mark={mark} /></pre>
              </section>
              <section aria-label="Transformed">
                <h3>Transformed</h3>
                <pre><JsonView value={res.transformed} mark={mark} /></pre>
              </section>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
