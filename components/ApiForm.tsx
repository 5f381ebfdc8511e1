/**
 * A real HTML form that posts (never GET) to the form bridge (`POST /forms`), which calls
 * one JSON API endpoint for it. Without JavaScript the browser posts and is redirected back
 * with the outcome; islands/client.tsx enhances every `form[data-form]`: progress and no
 * double submit, confirmation, the outcome in the aria-live region, refused fields marked
 * in place, and the page's content re-fetched so it shows the server's state.
 *
 * Field names carry their JSON type after a colon (`cacheTTL:number`, `refreshAssets:bool`,
 * `config:json`, `websiteOrigin:null` sends null when empty); dots nest (`variants.0.key`).
 */
import type { ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { PageContext } from "./page_context.ts";

export type ApiFormProps = {
  /** The API path, e.g. `/api/tenants/acme/domains`. */
  api: string;
  method?: "POST" | "PUT" | "PATCH" | "DELETE";
  submit: string;
  /** Button text while the request runs. */
  busy?: string;
  /** Destructive actions: the question asked before anything is sent. */
  confirm?: string;
  /** Where to go after success; `{key}` takes that key of the answer. */
  next?: string;
  /** Success message; `{key}` takes that key (dotted) of the answer. */
  done?: string;
  /** A value of the answer shown once with a copy button (`prefix` may use `{origin}`). */
  reveal?: { key: string; label: string; prefix?: string };
  /** `path=value` the answer must hold to count as success; `fail` is the message otherwise. */
  expect?: string;
  fail?: string;
  layout?: "form" | "inline" | "row";
  danger?: boolean;
  secondary?: boolean;
  /** Accessible name of the form (several similar forms on a page). */
  label?: string;
  children?: ComponentChildren;
};

export function ApiForm(p: ApiFormProps) {
  const ctx = useContext(PageContext);
  const hidden: [string, string | undefined][] = [
    ["_api", p.api],
    ["_method", p.method ?? "POST"],
    ["_back", ctx.path],
    ["_next", p.next],
    ["_done", p.done],
    ["_confirm", p.confirm],
    ["_reveal", p.reveal?.key],
    ["_reveal_label", p.reveal?.label],
    ["_reveal_prefix", p.reveal?.prefix],
    ["_expect", p.expect],
    ["_fail", p.fail],
  ];
  return (
    <form
      method="post"
      action="/forms"
      class={p.layout ?? "form"}
      data-form=""
      data-confirm={p.confirm}
      aria-label={p.label}
    >
      {hidden.map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />
      )}
      {p.children}
      <button
        type="submit"
        class={p.danger ? "danger" : p.secondary ? "secondary" : undefined}
        data-busy={p.busy ?? "Working\u2026"}
      >
        {p.submit}
      </button>
    </form>
  );
}

/** A one-button secondary action in a row of actions (POST, "Saving..."). */
export function InlineAction(
  p: { api: string; submit: string; done: string; label: string; children?: ComponentChildren },
) {
  return (
    <ApiForm
      api={p.api}
      submit={p.submit}
      busy={`Saving\u2026`}
      done={p.done}
      layout="inline"
      secondary
      label={p.label}
    >
      {p.children}
    </ApiForm>
  );
}

type FieldProps = {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "number" | "url" | "textarea" | "date";
  value?: string | number | null;
  required?: boolean;
  placeholder?: string;
  hint?: string;
  min?: number;
  max?: number;
  autocomplete?: string;
  /** Extra class on the wrapper (e.g. `only-translate` for preset-dependent fields). */
  class?: string;
};

let seq = 0;
/** A labelled input; the hint is linked by aria-describedby. */
export function Field(f: FieldProps) {
  const id = `f${++seq}`;
  const hintId = f.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: f.name,
    required: f.required,
    placeholder: f.placeholder,
    "aria-describedby": hintId,
  };
  return (
    <div class={`field ${f.class ?? ""}`.trim()}>
      <label for={id}>{f.label}</label>
      {f.type === "textarea" ? <textarea {...common}>{f.value ?? ""}</textarea> : (
        <input
          {...({
            ...common,
            type: f.type ?? "text",
            value: f.value ?? undefined,
            min: f.min,
            max: f.max,
            autocomplete: f.autocomplete,
          } as Record<string, unknown>)}
        />
      )}
      {f.hint && <span class="hint" id={hintId}>{f.hint}</span>}
    </div>
  );
}

type SelectProps = {
  name: string;
  label: string;
  options: readonly (string | { value: string; label: string })[];
  value?: string | null;
  hint?: string;
  class?: string;
  /**
   * With JavaScript, this select takes `values[v]` whenever the form's select `field` changes
   * to `v` (islands/client.tsx); the person can still change it afterwards.
   */
  follows?: { field: string; values: Record<string, string> };
};

export function Select(f: SelectProps) {
  const id = `f${++seq}`;
  return (
    <div class={`field ${f.class ?? ""}`.trim()}>
      <label for={id}>{f.label}</label>
      <select
        id={id}
        name={f.name}
        data-follows={f.follows?.field}
        data-follow-values={f.follows && JSON.stringify(f.follows.values)}
      >
        {f.options.map((o) => {
          const { value, label } = typeof o === "string" ? { value: o, label: o } : o;
          return <option key={value} value={value} selected={value === f.value}>{label}</option>;
        })}
      </select>
      {f.hint && <span class="hint">{f.hint}</span>}
    </div>
  );
}

/** A checkbox that always sends a boolean (a hidden "false" before it; the last value wins). */
export function Checkbox(f: { name: string; label: string; checked?: boolean }) {
  const id = `f${++seq}`;
  return (
    <div class="check">
      <input type="hidden" name={`${f.name}:bool`} value="false" />
      <input id={id} type="checkbox" name={`${f.name}:bool`} value="true" checked={f.checked} />
      <label for={id}>{f.label}</label>
    </div>
  );
}

export function Hidden({ name, value }: { name: string; value: string | number }) {
  return <input type="hidden" name={name} value={String(value)} />;
}
