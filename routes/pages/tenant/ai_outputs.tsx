/**
 * Stored AI outputs side by side with their source: the table the AI page
 * shows per rule and the review page shows for the queue, with the review actions.
 */
import type { TenantPageCtx } from "./shell.tsx";
import { ApiForm, Field, InlineAction } from "../../../components/ApiForm.tsx";
import { Badge, TableWrap, Time } from "../../../components/ui.tsx";
import type { OutputView } from "../../../lib/ai/view_schema.ts";

const TONE = {
  auto: "neutral",
  pending: "warn",
  approved: "ok",
  edited: "ok",
  rejected: "error",
  source_changed: "warn",
} as const;

function Actions({ t, o }: { t: TenantPageCtx; o: OutputView }) {
  const base = `${t.api}/ai-transform/outputs/${o.id}`;
  const act = (path: string, label: string, done: string) => (
    <InlineAction
      api={`${base}/${path}`}
      submit={label}
      done={done}
      label={`${label} output ${o.id}`}
    >
      <input type="hidden" name="version:number" value={String(o.version)} />
    </InlineAction>
  );
  return (
    <div class="actions">
      {o.status !== "approved" && act("approve", "Approve", "Output {id} approved")}
      {o.status !== "rejected" && act("reject", "Reject", "Output {id} rejected: source served")}
      {!o.pinned && act("pin", "Pin", "Output {id} pinned")}
      <details>
        <summary>Edit</summary>
        <ApiForm
          api={base}
          method="PUT"
          submit="Save and pin"
          busy={`Saving\u2026`}
          done="Output {id} edited and pinned"
          label={`Edit output ${o.id}`}
        >
          <Field name="output" label="Output" type="textarea" value={o.output} required />
          <input type="hidden" name="version:number" value={String(o.version)} />
        </ApiForm>
      </details>
    </div>
  );
}

/** Source and output side by side, with provenance and (for editors) the actions. */
export function OutputsTable({ t, outputs, label }: {
  t: TenantPageCtx;
  outputs: OutputView[];
  label: string;
}) {
  const editor = t.can("editor");
  return (
    <TableWrap label={label}>
      <thead>
        <tr>
          <th>Where</th>
          <th>Source</th>
          <th>Output</th>
          <th>Status</th>
          <th>Provenance</th>
          {editor && <th>Review</th>}
        </tr>
      </thead>
      <tbody>
        {outputs.map((o) => (
          <tr key={o.id}>
            <td>
              <code>{o.path}</code> <code>{o.field}</code>
            </td>
            <td>{o.source}</td>
            <td>{o.output}</td>
            <td>
              <Badge tone={TONE[o.status]}>{o.status.replace("_", " ")}</Badge>
              {o.pinned ? " pinned" : ""}
            </td>
            <td class="muted">
              rule #{o.ruleId} v{o.ruleVersion} · {o.presetId} v{o.presetVersion} · {o.model} ·{" "}
              {o.tokens} tokens · prompt <code>{o.promptHash.slice(0, 12)}</code> ·{" "}
              <Time at={o.createdAt} />
            </td>
            {editor && (
              <td>
                <Actions t={t} o={o} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}
