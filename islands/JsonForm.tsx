/**
 * A form that sends its fields as JSON to one API endpoint and shows the answer.
 * One island serves every simple dashboard form (create tenant, add domain, invite, ...).
 */
import { useSignal } from "@preact/signals";
import { callApi, pick, redirectTarget } from "./api.ts";

export type Field = {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "number" | "select" | "checkbox" | "url";
  options?: string[];
  required?: boolean;
  placeholder?: string;
  value?: string;
  autocomplete?: string;
};

export type JsonFormProps = {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  /**
   * Where the browser posts the form before or without JavaScript (a page route that
   * accepts the form). Forms always post: a GET would put the fields, passwords
   * included, in the URL.
   */
  action?: string;
  fields: Field[];
  submitLabel: string;
  /** Where to go after success; `{key}` is filled from the JSON answer (never the form). */
  redirectTo?: string;
  /** Show this key of the JSON answer after success (e.g. a secret shown once). */
  revealKey?: string | string[];
  /** Shown on success instead of the generic "Done". */
  successText?: string;
  /** Sent with every submission, not shown (e.g. the token of a reset link). */
  constants?: Record<string, string>;
};

function collect(form: HTMLFormElement, fields: Field[]): Record<string, unknown> {
  const data = new FormData(form);
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = data.get(f.name);
    if (f.type === "checkbox") out[f.name] = raw === "on";
    else if (raw === null || raw === "") continue;
    else if (f.type === "number") out[f.name] = Number(raw);
    else out[f.name] = String(raw);
  }
  return out;
}

export function JsonForm(props: JsonFormProps) {
  const message = useSignal<{ ok: boolean; text: string } | null>(null);
  const busy = useSignal(false);

  async function onSubmit(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const body = { ...props.constants, ...collect(form, props.fields) };
    busy.value = true;
    const r = await callApi(props.method, props.url, body);
    busy.value = false;
    const revealed = r.ok ? pick(r.body, props.revealKey) : "";
    const text = r.ok && props.successText ? props.successText : r.message;
    message.value = { ok: r.ok, text: revealed ? `${text}: ${revealed}` : text };
    if (r.ok && props.redirectTo) {
      location.href = redirectTarget(props.redirectTo, r.body);
    }
  }

  return (
    <form class="card form" method="post" action={props.action} onSubmit={onSubmit}>
      {props.fields.map((f) => (
        <label key={f.name}>
          <span>{f.label}</span>
          {f.type === "select"
            ? (
              <select name={f.name} required={f.required}>
                {(f.options ?? []).map((o) => (
                  <option key={o} value={o} selected={o === f.value}>{o}</option>
                ))}
              </select>
            )
            : f.type === "checkbox"
            ? <input name={f.name} type="checkbox" />
            : (
              <input
                name={f.name}
                type={(f.type ?? "text") as "text"}
                required={f.required}
                placeholder={f.placeholder}
                value={f.value}
                autocomplete={f.autocomplete}
              />
            )}
        </label>
      ))}
      <button type="submit" disabled={busy.value}>{props.submitLabel}</button>
      {message.value && (
        <p class={message.value.ok ? "ok" : "error"} role="status">{message.value.text}</p>
      )}
    </form>
  );
}
