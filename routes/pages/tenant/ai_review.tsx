/**
 * The review queue: counts per status and rule, the outputs of one status
 * (pending first) side by side with their source, per-output actions and "approve all
 * shown" (each only at the version shown, so nothing changed since is approved unseen).
 */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm } from "../../../components/ApiForm.tsx";
import { Empty, Refusal } from "../../../components/ui.tsx";
import { listOutputs, outputCounts } from "../../../lib/ai/outputs.ts";
import { aiEngineFor } from "../../../lib/ai/engine.ts";
import { AI_OUTPUT_STATUSES, type AiOutputStatus } from "../../../lib/db/schema/ai.ts";
import { OutputsTable } from "./ai_outputs.tsx";

const PAGE = 50;

export const aiReviewPage: TenantAreaPage = async (t) => {
  await aiEngineFor(t.s).flush();
  const q = t.c.req.query();
  const status: AiOutputStatus = AI_OUTPUT_STATUSES.find((s) => s === q.status) ?? "pending";
  const ruleId = /^[1-9]\d{0,8}$/.test(q.rule ?? "") ? Number(q.rule) : undefined;
  const cursor = /^[1-9]\d{0,15}$/.test(q.cursor ?? "") ? Number(q.cursor) : undefined;
  const [counts, page] = await Promise.all([
    outputCounts(t.s, t.tenant.id),
    listOutputs(t.s, t.tenant.id, { limit: PAGE, status, ruleId, cursor }),
  ]);
  const link = (p: { status?: string; rule?: number; cursor?: string }) => {
    const u = new URLSearchParams();
    u.set("status", p.status ?? status);
    if (p.rule ?? ruleId) u.set("rule", String(p.rule ?? ruleId));
    if (p.cursor) u.set("cursor", p.cursor);
    return `${t.href}/ai-review?${u}`;
  };
  const pending = page.outputs.filter((o) =>
    o.status === "pending" || o.status === "source_changed"
  );
  return (
    <>
      {!t.can("editor") && <Refusal role={t.role} need="editor" what="review outputs" />}
      <section class="card">
        <h2>Queue</h2>
        <p class="actions">
          {AI_OUTPUT_STATUSES.map((s) => (
            <a key={s} href={link({ status: s })} aria-current={s === status ? "true" : undefined}>
              {s.replace("_", " ")}: {counts.counts[s]}
            </a>
          ))}
        </p>
        {counts.byRule.length > 0 && (
          <p class="actions">
            <span class="muted">Rule:</span>
            <a href={`${t.href}/ai-review?status=${status}`}>all</a>
            {counts.byRule.map((r) => (
              <a key={r.ruleId} href={link({ rule: r.ruleId })}>
                #{r.ruleId} ({r.counts.pending} pending)
              </a>
            ))}
          </p>
        )}
      </section>
      <section class="card">
        {/* A heading starts with a capital: "Pending outputs", not "pending outputs". */}
        <h2>
          {status[0].toUpperCase() + status.slice(1).replace("_", " ")} outputs
          {ruleId ? ` of rule #${ruleId}` : ""}
        </h2>
        {page.outputs.length === 0
          ? <Empty title="Nothing here">No outputs with this status.</Empty>
          : <OutputsTable t={t} outputs={page.outputs} label="Outputs to review" />}
        {t.can("editor") && pending.length > 0 && (
          <ApiForm
            api={`${t.api}/ai-transform/outputs/approve`}
            submit={`Approve all ${pending.length} shown`}
            busy={`Approving\u2026`}
            done="Approved {approved.length}; skipped {skipped.length} changed since"
            label="Approve all shown"
          >
            {pending.map((o, i) => (
              <span key={o.id}>
                <input type="hidden" name={`outputs.${i}.id:number`} value={String(o.id)} />
                <input
                  type="hidden"
                  name={`outputs.${i}.version:number`}
                  value={String(o.version)}
                />
              </span>
            ))}
          </ApiForm>
        )}
        {page.nextCursor && <a href={link({ cursor: page.nextCursor })}>Older {`\u2192`}</a>}
      </section>
    </>
  );
};
