/**
 * The provider part of a tenant form: the identifier each CMS kind
 * needs, the website domain, and the origins derived from them (with a sample
 * clean URL). Self-contained and server-rendered: every value shown comes from
 * `describeProvider` of the shared rule set (sdk/providers.ts), so what the form
 * promises is what the edge does. Works without JavaScript: on the create form
 * each kind's fields are a group marked `data-provider-kind`, and the derived
 * origins are shown per kind with the identifier as a placeholder.
 */
import { Field, Hidden, Select } from "./ApiForm.tsx";
import type { FieldSpec } from "../sdk/providers/types.ts";
import {
  describeProvider,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  PROVIDER_LIST,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  STORYBLOK_REGIONS,
  tableOf,
} from "../lib/providers/mod.ts";

type FieldName = keyof Omit<ProviderConfig, "cms">;

/** Label, hint and placeholder of each identifier field, from the kinds' definitions. */
const FIELD_TEXT = Object.fromEntries(
  PROVIDER_LIST.flatMap((d) => Object.entries(d.fields)),
) as Record<FieldName, FieldSpec>;

/** Each kind's name, from its definition. */
export const PROVIDER_LABELS: Record<ProviderKind, string> = tableOf((d) => d.label);

export type ProviderFieldsProps = {
  /** Edit one tenant's kind (values filled in); absent -> the create form, every kind. */
  cms?: ProviderKind;
  values?: Partial<Record<FieldName | "websiteDomain", string | null>>;
  /** The tenant host origin the sample clean URL uses. */
  tenantOrigin: string;
  env?: ProviderEnv;
  /** What the server derived for the stored values (edit mode shows it as is). */
  described?: ReturnType<typeof describeProvider>;
  /**
   * The create form's chosen kind: only its fields, with `cms` as a hidden input
   * (the kind is picked in a form of its own first, so it works without JavaScript).
   */
  pick?: ProviderKind;
};

/** Identifier fields, website domain and derived origins for one kind or all of them. */
export function ProviderFields(p: ProviderFieldsProps) {
  const kinds = p.cms ? [p.cms] : p.pick ? [p.pick] : PROVIDER_KINDS;
  return (
    <div class="provider-fields">
      {!p.cms && p.pick && <Hidden name="cms" value={p.pick} />}
      {!p.cms && !p.pick && (
        <Select
          name="cms"
          label="CMS"
          options={PROVIDER_KINDS.map((k) => ({ value: k, label: PROVIDER_LABELS[k] }))}
          hint="Then fill in the identifier of that kind below; origins are derived from it"
        />
      )}
      {kinds.map((kind) => <KindGroup key={kind} kind={kind} {...p} />)}
      <Field
        name={p.cms ? "websiteDomain:null" : "websiteDomain"}
        label="Website domain"
        value={p.values?.websiteDomain ?? undefined}
        placeholder="www.example.com"
        hint="Asset requests carry Referer: https://<this domain>/"
      />
    </div>
  );
}

function KindGroup(p: ProviderFieldsProps & { kind: ProviderKind }) {
  const fields = PROVIDER_FIELDS[p.kind] as readonly FieldName[];
  const editing = p.cms !== undefined;
  // Placeholders stand in for missing identifiers, so the pattern of the origins shows.
  const shown: ProviderConfig = { cms: p.kind };
  for (const f of fields) {
    const v = p.values?.[f];
    (shown as Record<string, unknown>)[f] = v ||
      (f === "region" || f === "videoOrigin" || f === "dataset" ? undefined : placeholderOf(f));
  }
  const d = p.described ?? describeProvider(shown, { tenantOrigin: p.tenantOrigin, env: p.env });
  return (
    <fieldset class="provider-kind" data-provider-kind={p.kind}>
      <legend>{PROVIDER_LABELS[p.kind]}</legend>
      {fields.map((f) =>
        f === "region"
          ? (
            <Select
              key={f}
              name={editing ? "region:null" : "region"}
              label={FIELD_TEXT.region.label}
              options={[{ value: "", label: "eu (default)" }, ...STORYBLOK_REGIONS.slice(1)]}
              value={p.values?.region ?? ""}
            />
          )
          : (
            <Field
              key={f}
              name={editing ? `${f}:null` : f}
              label={FIELD_TEXT[f].label}
              value={p.values?.[f] ?? undefined}
              placeholder={FIELD_TEXT[f].placeholder}
              hint={FIELD_TEXT[f].hint}
            />
          )
      )}
      <DerivedOrigins described={d} />
    </fieldset>
  );
}

function placeholderOf(f: FieldName): string {
  return f === "originUrl" ? "https://origin.example.com" : `{${f}}`;
}

/**
 * The API and asset origins and one sample provider URL -> clean tenant URL. The API origin
 * is the derived one unless `apiOrigin` (the tenant's stored, effective one) differs from it;
 * data-api-origin says which is shown.
 */
export function DerivedOrigins(
  { described, apiOrigin }: {
    described: ReturnType<typeof describeProvider>;
    apiOrigin?: string | null;
  },
) {
  const api = apiOrigin ?? described.api;
  const kind = !api ? "none" : api === described.api ? "derived" : "configured";
  return (
    <dl class="derived-origins">
      <dt>API origin</dt>
      <dd data-api-origin={kind}>
        {api ? <code>{api}</code> : <span class="muted">set your own</span>}
      </dd>
      <dt>Asset origins</dt>
      <dd>
        {described.assets.length === 0
          ? <span class="muted">none yet</span>
          : described.assets.map((o) => (
            <div key={o.role + o.url}>
              <code>{o.url}</code> <span class="muted">({o.role})</span>
            </div>
          ))}
      </dd>
      {described.sample && (
        <>
          <dt>Sample asset</dt>
          <dd>
            <code>{described.sample.source}</code> {`\u2192`} <code>{described.sample.clean}</code>
          </dd>
        </>
      )}
    </dl>
  );
}
