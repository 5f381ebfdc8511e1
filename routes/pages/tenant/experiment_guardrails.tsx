/**
 * Guardrail fields of the experiment forms (create, and the editor's own form): the
 * thresholds, the goal, the margin against control and the minimum sample per arm. Rates
 * are fractions, as in the API (docs/decisions.md "Experiment guardrails"); an empty field
 * is left out.
 */
import type { TenantPageCtx } from "./shell.tsx";
import { ApiForm, Field, Hidden } from "../../../components/ApiForm.tsx";
import type { ExperimentView } from "../../../lib/experiments/service.ts";
import { DEFAULT_MARGIN, DEFAULT_MIN_VISITORS } from "../../../lib/experiments/guardrails.ts";
import { DEFAULT_GOAL, MIN_VISITORS_FLOOR } from "../../../lib/experiments/schema.ts";

type G = ExperimentView["guardrails"];

export function GuardrailFields({ g }: { g?: G }) {
  return (
    <fieldset>
      <legend>Guardrails (optional)</legend>
      <p class="hint">
        A variant stops itself when its visitors do worse than control's by more than the margin,
        with 95 % confidence, and beyond the threshold. Each visitor counts once per 10 minutes; an
        outage control sees as much never stops it.
      </p>
      <Field
        name="guardrails.maxErrorRate:number"
        label="Max share of visitors with a 5xx"
        value={g?.maxErrorRate ?? null}
        placeholder="0.05"
        hint="A fraction: 0.05 = 5 %"
      />
      <Field
        name="guardrails.maxP95Ms:number"
        label="Max p95 answer time (ms)"
        value={g?.maxP95Ms ?? null}
        placeholder="1000"
      />
      <Field
        name="guardrails.minConversionRate:number"
        label="Min share of visitors converting"
        value={g?.minConversionRate ?? null}
        placeholder="0.02"
        hint="A fraction: 0.02 = 2 %"
      />
      <Field
        name="guardrails.goal"
        label="Goal event of the conversion guardrail"
        value={g?.goal ?? null}
        placeholder={DEFAULT_GOAL}
      />
      <Field
        name="guardrails.margin:number"
        label="Margin against control"
        value={g?.margin ?? null}
        placeholder={String(DEFAULT_MARGIN)}
        hint="How much worse than control a variant may be, as a fraction of visitors"
      />
      <Field
        name="guardrails.minVisitors:number"
        label="Visitors per variant before any verdict"
        value={g?.minVisitors ?? null}
        placeholder={String(DEFAULT_MIN_VISITORS)}
        hint={`At least ${MIN_VISITORS_FLOOR}`}
      />
    </fieldset>
  );
}

/** The editor's guardrail form: save (the fields replace them all) or remove them. */
export function GuardrailEditor({ t, e }: { t: TenantPageCtx; e: ExperimentView }) {
  return (
    <>
      <h3>Guardrails</h3>
      <ApiForm
        api={`${t.api}/ai-experiments/${e.id}`}
        method="PATCH"
        submit="Save guardrails"
        busy={`Saving\u2026`}
        done="Guardrails of {name} saved"
        label={`Guardrails of ${e.name}`}
      >
        <GuardrailFields g={e.guardrails} />
      </ApiForm>
      {e.guardrails && (
        <ApiForm
          api={`${t.api}/ai-experiments/${e.id}`}
          method="PATCH"
          submit="Remove guardrails"
          busy={`Removing\u2026`}
          done="Guardrails of {name} removed"
          layout="inline"
          secondary
          label={`Remove the guardrails of ${e.name}`}
        >
          <Hidden name="guardrails:null" value="" />
        </ApiForm>
      )}
    </>
  );
}
