/**
 * A form outcome as people read it: success in green, failure in red with the server's
 * message and the refused fields, and a value shown once with a copy button. Rendered by
 * the server (no-JS posts) and by the client entry into the page's aria-live region.
 */
import type { FormOutcome } from "../lib/dashboard/flash.ts";

export function Notice({ outcome }: { outcome: FormOutcome }) {
  const fields = Object.entries(outcome.fields ?? {});
  return (
    <div class={`notice ${outcome.ok ? "ok" : "error"}`} role={outcome.ok ? undefined : "alert"}>
      <p>
        <strong>{outcome.ok ? "Done: " : "Failed: "}</strong>
        {outcome.message}
      </p>
      {fields.length > 0 && (
        <ul>
          {fields.map(([path, why]) => (
            <li key={path}>
              <code>{path}</code>: {why}
            </li>
          ))}
        </ul>
      )}
      {outcome.reveal && (
        <div class="secret">
          <span>{outcome.reveal.label} (shown once):</span>
          <code data-secret>{outcome.reveal.value}</code>
          <button type="button" class="secondary" data-copy={outcome.reveal.value}>Copy</button>
        </div>
      )}
      {outcome.link && (
        <p>
          <a href={outcome.link.href}>{outcome.link.label}</a>
        </p>
      )}
      {!outcome.ok && (
        <p class="muted">
          {fields.length
            ? "Nothing was saved: correct the fields named above and try again."
            : "Nothing was changed: correct the problem and try again."}
        </p>
      )}
    </div>
  );
}
