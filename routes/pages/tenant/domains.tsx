/** Domains: add, DNS instructions with copy buttons, status badges, verify, remove. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Field, Hidden } from "../../../components/ApiForm.tsx";
import { Badge, Copyable, Empty, Refusal, TableWrap, Time } from "../../../components/ui.tsx";
import { domainView, listDomains, tenantCnameTarget } from "../../../lib/domains/service.ts";
import { customDomainsAllowed } from "../../../lib/domains/plan_rules.ts";
import { PLAN_PAGE } from "../../../lib/errors.ts";

const TONE = { active: "ok", failed: "error", pending: "warn" } as const;

/**
 * One domain: its status, the DNS records to create, and verify and remove (admins).
 * Long: one card's markup: the status and its last check, the DNS records table (type, name,
 * copyable value) and the verify and remove forms (admins).
 */
function DomainCard(
  { t, d, admin }: {
    t: Parameters<TenantAreaPage>[0];
    d: ReturnType<typeof domainView>;
    admin: boolean;
  },
) {
  return (
    <section class="card" aria-label={d.hostname}>
      <h2>
        {d.hostname}{" "}
        <Badge tone={TONE[d.status as keyof typeof TONE] ?? "neutral"}>{d.status}</Badge>
      </h2>
      {d.status === "failed" && d.failureReason && (
        <p class="error">Verification failed: {d.failureReason}</p>
      )}
      <p class="muted">
        Last checked <Time at={d.lastCheckedAt} />
        {d.verifiedAt && (
          <>
            , verified <Time at={d.verifiedAt} />
          </>
        )}
      </p>
      <TableWrap label={`DNS records for ${d.hostname}`}>
        <thead>
          <tr>
            <th>Type</th>
            <th>Name</th>
            <th>Value / target</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>TXT</td>
            <td>
              <Copyable value={d.verification.txt.name} label="TXT name" />
            </td>
            <td>
              <Copyable value={d.verification.txt.value} label="TXT value" />
            </td>
          </tr>
          <tr>
            <td>CNAME</td>
            <td>
              <Copyable value={d.verification.cname.name} label="CNAME name" />
            </td>
            <td>
              <Copyable value={d.verification.cname.target} label="CNAME target" />
            </td>
          </tr>
        </tbody>
      </TableWrap>
      <p class="muted">
        Either record proves ownership; the CNAME also routes traffic. A CNAME to the tenant host
        {" "}
        <code>{tenantCnameTarget(t.s, t.tenant.slug)}</code> works too.
      </p>
      {admin && (
        <div class="actions">
          <ApiForm
            api={`${t.api}/domains/verify`}
            submit="Verify now"
            busy={`Checking DNS\u2026`}
            done="{hostname} is active"
            expect="status=active"
            fail="{hostname} is not verified yet: {failureReason}. Check the DNS records and try again."
            layout="inline"
            label={`Verify ${d.hostname}`}
          >
            <Hidden name="hostname" value={d.hostname} />
          </ApiForm>
          <ApiForm
            api={`${t.api}/domains`}
            method="DELETE"
            submit="Remove"
            busy={`Removing\u2026`}
            confirm={`Remove ${d.hostname}? Traffic to it stops being served.`}
            done="Removed {hostname}"
            layout="inline"
            danger
            label={`Remove ${d.hostname}`}
          >
            <Hidden name="hostname" value={d.hostname} />
          </ApiForm>
        </div>
      )}
    </section>
  );
}

export const domainsPage: TenantAreaPage = async (t) => {
  const rows = (await listDomains(t.s, t.tenant.id)).map((d) => domainView(t.s, d));
  const admin = t.can("admin");
  // The API refuses a free account's domain (lib/domains/plan_rules.ts): offer the plan instead.
  const allowed = await customDomainsAllowed(t.s, t.tenant.id);
  return (
    <>
      {!admin && <Refusal role={t.role} need="admin" what="add, verify or remove domains" />}
      {rows.length === 0 && allowed && (
        <Empty title="No custom domains yet" name="domains">
          Add a hostname such as <code>cdn.example.com</code>{" "}
          below, then create the DNS records shown and verify.
        </Empty>
      )}
      {rows.map((d) => <DomainCard key={d.id} t={t} d={d} admin={admin} />)}
      {!allowed && (
        <section class="card" data-testid="domains-plan">
          <h2>Custom domains need the pro plan</h2>
          <p>
            The account that owns this tenant is on the free plan, which serves the tenant on its
            Cachely host only. On pro, the owner can add a domain such as{" "}
            <code>cdn.example.com</code>.
          </p>
          <p>
            <a href={PLAN_PAGE}>See the plans</a>
          </p>
        </section>
      )}
      {admin && allowed && (
        <section class="card">
          <h2>Add a domain</h2>
          <ApiForm
            api={`${t.api}/domains`}
            submit="Add domain"
            busy={`Adding\u2026`}
            done="Added {hostname}: create the DNS records shown, then verify"
            label="Add a domain"
          >
            <Field name="hostname" label="Hostname" required placeholder="cdn.example.com" />
          </ApiForm>
        </section>
      )}
    </>
  );
};
