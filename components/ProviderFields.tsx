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
import {
  describeProvider,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderKind,
  STORYBLOK_REGIONS,
} from "../lib/providers/mod.ts";

type FieldName = keyof Omit<ProviderConfig, "cms">;

/** Label, hint and placeholder of each identifier field. */
const FIELD_TEXT: Record<FieldName, { label: string; hint: string; placeholder: string }> = {
  spaceId: { label: "Space ID", hint: "Settings → General settings", placeholder: "abc123xyz" },
  repository: { label: "Repository", hint: "from <repo>.prismic.io", placeholder: "my-repo" },
  projectId: { label: "Project ID", hint: "sanity.io/manage", placeholder: "p1x2y3z4" },
  dataset: { label: "Dataset", hint: "default production", placeholder: "production" },
  storeDomain: {
    label: "Store domain",
    hint: "x.myshopify.com or the store's own domain",
    placeholder: "acme.myshopify.com",
  },
  cloudName: { label: "Cloud name", hint: "from the media library", placeholder: "demo" },
  imgixDomain: {
    label: "imgix source domain",
    hint: "x.imgix.net or a custom domain",
    placeholder: "acme.imgix.net",
  },
  region: { label: "Region", hint: "the space's region (default eu)", placeholder: "eu" },
  originUrl: {
    label: "Origin URL",
    hint: "S3, R2, GCS or any HTTPS origin",
    placeholder: "https://bucket.s3.amazonaws.com",
  },
  videoOrigin: {
    label: "Video origin (optional)",
    hint: "video files are fetched here instead",
    placeholder: "https://media.example.com",
  },
};

export const PROVIDER_LABELS: Record<ProviderKind, string> = {
  contentful: "Contentful",
  prismic: "Prismic",
  sanity: "Sanity",
  shopify: "Shopify",
  cloudinary: "Cloudinary",
  imgix: "imgix",
  storyblok: "Storyblok",
  generic: "Generic HTTPS origin",
};

export type ProviderFieldsProps = {
  /** Edit one tenant's kind (values filled in); absent → the create form, every kind. */
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
 * The API and asset origins and one sample provider URL → clean tenant URL. The API origin
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
            <code>{described.sample.source}</code> → <code>{described.sample.clean}</code>
          </dd>
        </>
      )}
    </dl>
  );
}
