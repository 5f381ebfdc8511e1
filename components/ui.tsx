/** Small server-rendered building blocks shared by dashboard pages. */
import type { ComponentChildren } from "preact";
import { formatBytes } from "../lib/dashboard/format.ts";

/**
 * An empty state: what is missing and the next step. `name` says which list is empty
 * (`data-empty`), so tests find it by structure rather than by its wording.
 */
export function Empty(
  { title, name, children }: { title: string; name?: string; children?: ComponentChildren },
) {
  return (
    <div class="empty" data-empty={name ?? ""}>
      <p>
        <strong>{title}</strong>
      </p>
      {children && <p>{children}</p>}
    </div>
  );
}

/** Why the caller cannot do something here, and who can (`data-refusal`: the role needed). */
export function Refusal({ need, role, what }: { need: string; role: string; what: string }) {
  return (
    <p class="notice warn" data-refusal={need}>
      Your role ({role}) cannot {what}: that needs {need} or higher. Ask an admin of this tenant.
    </p>
  );
}

/** A timestamp: UTC on the server; the client entry shows it in the viewer's zone, UTC on hover. */
export function Time({ at }: { at: string | Date | null | undefined }) {
  if (!at) return <span class="muted">{`\u2014`}</span>;
  const d = typeof at === "string" ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) return <span>{String(at)}</span>;
  const iso = d.toISOString();
  const utc = `${iso.slice(0, 16).replace("T", " ")} UTC`;
  return <time datetime={iso} title={utc} data-local="">{utc}</time>;
}

export function Bytes({ n }: { n: number }) {
  return <span title={`${n.toLocaleString("en")} bytes`}>{formatBytes(n)}</span>;
}

export type BadgeTone = "ok" | "error" | "warn" | "neutral";
export function Badge({ tone, children }: { tone: BadgeTone; children: ComponentChildren }) {
  return <span class={`badge ${tone === "neutral" ? "" : tone}`}>{children}</span>;
}

export function Stat({ label, value }: { label: string; value: ComponentChildren }) {
  return (
    <div class="stat">
      <div class="value">{value}</div>
      <div class="label">{label}</div>
    </div>
  );
}

/** A value with a copy button (the button works once the island bundle has loaded). */
export function Copyable({ value, label }: { value: string; label?: string }) {
  return (
    <span class="secret">
      <code>{value}</code>
      <button
        type="button"
        class="secondary"
        data-copy={value}
        aria-label={label ? `Copy ${label}` : "Copy"}
      >
        Copy
      </button>
    </span>
  );
}

/** A table that scrolls inside itself on narrow screens instead of widening the page. */
export function TableWrap({ children, label }: { children: ComponentChildren; label: string }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}
