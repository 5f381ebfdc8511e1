/**
 * Changing an existing experiment from the dashboard: its name and route (PATCH), its
 * variants (PUT .../variants, which replaces the whole set) and its status back to draft.
 * Each form posts through the form bridge to the same endpoint a curl user would call.
 */
import { GuardrailEditor } from "./experiment_guardrails.tsx";
import type { TenantPageCtx } from "./shell.tsx";
import { ApiForm, Checkbox, Field, Hidden, Select } from "../../../components/ApiForm.tsx";
import type { ExperimentView } from "../../../lib/experiments/service.ts";
import { MAX_VARIANTS } from "../../../lib/experiments/schema.ts";
import { ROUTE_MATCHES } from "../../../lib/experiments/route.ts";

/** Blank rows offered after the existing variants, within the API's limit. */
const SPARE_ROWS = 2;

type Row = {
  key: string;
  label: string;
  weight: number | null;
  profile: string | null;
  /** An existing variant: offers a "remove" checkbox (the bridge then leaves the row out). */
  existing?: boolean;
};

/**
 * Rows of variant fields named as the API's body (`variants.<i>.key`, ...). A row left blank
 * sends nothing and is dropped, so is an existing row whose "remove" box is ticked; a row's
 * label is only filled when it differs from its key, so a renamed key does not keep the old
 * key as its label.
 */
export function VariantFields({ rows, required }: { rows: Row[]; required: number }) {
  return (
    <>
      {rows.map((v, i) => (
        <fieldset key={i} class="row">
          <legend>
            {v.existing ? `Variant ${v.key}` : `Variant ${i + 1}`}
            {i < required || v.existing ? "" : " (optional)"}
          </legend>
          <Field
            name={`variants.${i}.key`}
            label="Key"
            value={v.key || undefined}
            placeholder={i === 0 ? "control" : `variant-${i}`}
            required={i < required}
          />
          <Field
            name={`variants.${i}.label`}
            label="Label"
            value={v.label && v.label !== v.key ? v.label : undefined}
            placeholder="same as key"
          />
          <Field
            name={`variants.${i}.weight:number`}
            label="Weight"
            type="number"
            min={1}
            value={v.weight}
            placeholder="1"
          />
          <Field
            name={`variants.${i}.transformProfile`}
            label="Profile (empty: control)"
            value={v.profile}
            placeholder={i === 0 ? "" : "formal"}
          />
          {v.existing && <Checkbox name={`variants.${i}._remove`} label={`Remove ${v.key}`} />}
        </fieldset>
      ))}
    </>
  );
}

export const blankRows = (n: number): Row[] =>
  Array.from({ length: n }, () => ({ key: "", label: "", weight: null, profile: null }));

/** An active experiment back to draft: traffic is no longer split, results stay. */
export function BackToDraft({ t, e }: { t: TenantPageCtx; e: ExperimentView }) {
  return (
    <ApiForm
      api={`${t.api}/ai-experiments/${e.id}`}
      method="PATCH"
      submit="Back to draft"
      busy={`Saving\u2026`}
      confirm={`Stop splitting traffic for ${e.name}? Results so far stay.`}
      done="{name} is a draft"
      layout="inline"
      secondary
      label={`Back to draft ${e.name}`}
    >
      <Hidden name="status" value="draft" />
    </ApiForm>
  );
}

export function ExperimentEditor({ t, e }: { t: TenantPageCtx; e: ExperimentView }) {
  const existing: Row[] = e.variants.map((v) => ({
    key: v.key,
    label: v.label,
    weight: v.weight,
    profile: v.transformProfile,
    existing: true,
  }));
  const spare = Math.max(0, Math.min(SPARE_ROWS, MAX_VARIANTS - existing.length));
  return (
    <details>
      <summary>Edit {e.name}</summary>
      <h3>Name and route</h3>
      <ApiForm
        api={`${t.api}/ai-experiments/${e.id}`}
        method="PATCH"
        submit="Save name and route"
        busy={`Saving\u2026`}
        done="{name} saved"
        label={`Edit ${e.name}`}
      >
        <Field name="name" label="Name" value={e.name} required />
        <Field
          name="routePattern"
          label="Route"
          value={e.routePattern}
          required
          hint="API path after /~api"
        />
        <Select name="routeMatch" label="Match" options={ROUTE_MATCHES} value={e.routeMatch} />
      </ApiForm>
      <GuardrailEditor t={t} e={e} />
      <h3>Variants</h3>
      <p class="muted">
        Saving replaces every variant: exposures and conversions counted so far stay in the logs but
        no longer count toward the results shown here.
        {e.status === "active" && " An active experiment must still pass activation."}
      </p>
      <ApiForm
        api={`${t.api}/ai-experiments/${e.id}/variants`}
        method="PUT"
        submit="Replace variants"
        busy={`Saving\u2026`}
        confirm={`Replace the variants of ${e.name}? Its results start again from zero.`}
        done="Variants of {name} saved"
        label={`Replace variants of ${e.name}`}
      >
        <VariantFields rows={[...existing, ...blankRows(spare)]} required={2} />
      </ApiForm>
    </details>
  );
}
