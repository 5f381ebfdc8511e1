/**
 * Previews (docs/providers.md "Previews"): editors make signed, expiring preview links (shown
 * once); admins rotate the link secret and set the preview credential. The draft switches a
 * visitor is refused are listed from the provider's definition (sdk/drafts.ts).
 */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Field, Select } from "../../../components/ApiForm.tsx";
import { Refusal } from "../../../components/ui.tsx";
import { DRAFT_SWITCHES } from "../../../sdk/drafts.ts";
import { previewSnapshotOf } from "../../../lib/preview/snapshot.ts";

const LIFETIMES = [
  { value: "7200", label: "2 hours" },
  { value: "3600", label: "1 hour" },
  { value: "86400", label: "1 day" },
  { value: "604800", label: "7 days" },
];

function Switches({ cms }: { cms: string }) {
  const d = DRAFT_SWITCHES[cms as keyof typeof DRAFT_SWITCHES];
  if (!d) return <p class="muted">This provider has no drafts: nothing to preview.</p>;
  return (
    <ul>
      {d.switches.map((s) => (
        <li key={s.name}>
          <code>{s.name}</code>: visitors {s.visitor}; with a preview link {s.preview}.
        </li>
      ))}
    </ul>
  );
}

/** The admin cards: the preview credential and the secret's rotation. */
function AdminCards({ t }: { t: Parameters<TenantAreaPage>[0] }) {
  const p = previewSnapshotOf(t.tenant);
  return (
    <>
      <section class="card">
        <h2>Preview credential</h2>
        <p class="muted">
          Used only with a valid link. Token: {p.tokenEnc ? "set" : "none (the API token)"}; origin:
          {" "}
          {p.origin ?? "the API origin"}.
        </p>
        <ApiForm
          api={`${t.api}/preview-credential`}
          method="PUT"
          submit="Save credential"
          busy={`Saving\u2026`}
          done="Preview credential saved"
          label="Preview credential"
        >
          <Field
            name="token"
            type="password"
            label="Preview token"
            hint="Contentful Preview API token, Storyblok preview token, Sanity token with drafts"
          />
          <Field
            name="apiOrigin:null"
            label="Preview API origin"
            value={p.origin ?? ""}
            hint="e.g. https://preview.contentful.com; empty: the API origin"
          />
        </ApiForm>
      </section>
      <section class="card">
        <h2>Rotate the link secret</h2>
        <ApiForm
          api={`${t.api}/preview-secret`}
          method="PUT"
          submit="Rotate secret"
          busy={`Rotating\u2026`}
          confirm="Rotate? Every preview link made so far stops working at once."
          done="Secret rotated: earlier preview links no longer work"
          label="Rotate the preview-link secret"
          danger
        />
      </section>
    </>
  );
}

export const previewsPage: TenantAreaPage = (t) => {
  if (!t.can("editor")) {
    return <Refusal role={t.role} need="editor" what="make preview links" />;
  }
  return (
    <>
      <p>
        Visitors never get unpublished content: a request carrying a draft switch is answered 400. A
        preview link lets an editor see drafts, with the preview credential, until it expires; its
        answers are private and never cached.
      </p>
      <section class="card">
        <h2>Make a preview link</h2>
        <ApiForm
          api={`${t.api}/preview-links`}
          submit="Make link"
          busy={`Signing\u2026`}
          done="Preview link made: share it with editors only"
          reveal={{ key: "url", label: "Preview link" }}
          label="Make a preview link"
        >
          <Field
            name="path"
            label="Site or API path"
            value="/~api/"
            required
            hint={`An API path (/~api/\u2026) opens itself and below; a site page opens every API read`}
          />
          <Select name="ttlSeconds:number" label="Valid for" options={LIFETIMES} value="7200" />
        </ApiForm>
      </section>
      <section class="card">
        <h2>Draft switches of this provider</h2>
        <Switches cms={t.tenant.cms} />
      </section>
      {t.can("admin")
        ? <AdminCards t={t} />
        : <Refusal role={t.role} need="admin" what="set the preview credential or rotate links" />}
    </>
  );
};
