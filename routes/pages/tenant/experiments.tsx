/**
 * Experiments: create with variants, activate (problems shown), back to draft, edit name,
 * route and variants (experiment_edit.tsx), archive, results per variant.
 */
import { and, eq, sql } from "drizzle-orm";
import type { TenantAreaPage, TenantPageCtx } from "./shell.tsx";
import { ApiForm, Field, Hidden, Select } from "../../../components/ApiForm.tsx";
import { BackToDraft, blankRows, ExperimentEditor, VariantFields } from "./experiment_edit.tsx";
import { GuardrailFields } from "./experiment_guardrails.tsx";
import { Badge, Empty, Refusal, TableWrap, Time } from "../../../components/ui.tsx";
import { BarChart } from "../../../components/charts/BarChart.tsx";
import { type ExperimentView, listExperiments } from "../../../lib/experiments/service.ts";
import { exposureSummary } from "../../../lib/experiments/exposures.ts";
import { DEFAULT_GOAL, EVENT_NAME_RE } from "../../../lib/experiments/schema.ts";
import { ROUTE_MATCHES } from "../../../lib/experiments/route.ts";
import { experimentEvents } from "../../../lib/db/schema/mod.ts";
import { formatCount } from "../../../lib/dashboard/format.ts";
import { DEFAULT_MARGIN, DEFAULT_MIN_VISITORS } from "../../../lib/experiments/guardrails.ts";

const TONE = {
  active: "ok",
  draft: "neutral",
  archived: "warn",
  stopped: "error",
  promoted: "ok",
} as const;
const NEW_VARIANT_ROWS = 4;
const pct = (n: number) => `${n.toFixed(1)} %`;
const pp = (n: number) => `${n >= 0 ? "+" : "\u2212"}${Math.abs(n).toFixed(1)} pp`;
/** An interval of percentage points, "lo ... hi". */
const p95Text = (ms: number | null) => ms === null ? "\u2014" : `\u2264 ${ms} ms`;
const ppRange = (lo: number, hi: number) => `${pp(lo)} \u2026 ${pp(hi)}`;

function guardrailText(g: NonNullable<ExperimentView["guardrails"]>): string {
  const parts: string[] = [];
  if (g.maxErrorRate !== undefined) parts.push(`5xx \u2264 ${pct(g.maxErrorRate * 100)}`);
  if (g.maxP95Ms !== undefined) parts.push(`p95 \u2264 ${g.maxP95Ms} ms`);
  if (g.minConversionRate !== undefined) {
    parts.push(`conversion \u2265 ${pct(g.minConversionRate * 100)} (${g.goal ?? DEFAULT_GOAL})`);
  }
  if (parts.length === 0) return "none";
  const margin = pct((g.margin ?? DEFAULT_MARGIN) * 100);
  const min = g.minVisitors ?? DEFAULT_MIN_VISITORS;
  return `${parts.join(", ")}; against control by ${margin}, from ${min} visitors a variant`;
}

/** The event names seen for an experiment, so a goal can be chosen with a link. */
async function eventNames(t: TenantPageCtx, experimentId: number): Promise<string[]> {
  const rows = await t.s.db.selectDistinct({ name: experimentEvents.eventName })
    .from(experimentEvents)
    .where(
      and(
        eq(experimentEvents.tenantId, t.tenant.id),
        eq(experimentEvents.experimentId, experimentId),
      ),
    )
    .orderBy(sql`1`).limit(20);
  return rows.map((r) => r.name);
}

// Long: one section's markup: the sample-ratio warning, the goal-event links, the results table
// (ten columns a variant: exposures, split, conversions, 5xx, p95, verdict, uplift with its
// interval; data-col ties each cell to its header) and two charts; the statistics come ready
// from exposureSummary.
async function Results(t: TenantPageCtx, e: ExperimentView) {
  const asked = t.c.req.query(`goal${e.id}`) ?? "";
  const names = await eventNames(t, e.id);
  // The experiment's own goal (its guardrails') first, else the first event seen.
  const goal = EVENT_NAME_RE.test(asked) ? asked : e.guardrails?.goal ?? names[0] ?? DEFAULT_GOAL;
  const r = await exposureSummary(t.s, t.tenant.id, e.id, goal);
  if (r.totalExposures === 0) {
    return (
      <p class="muted">
        No exposures yet: requests to <code>{t.view.proxyBase}/~api{e.routePattern}</code>{" "}
        are split once the experiment is active.
      </p>
    );
  }
  const labels = r.variants.map((v) => v.variantKey);
  return (
    <>
      {r.sampleRatioMismatch?.flagged && (
        <p class="notice warn">
          Sample ratio mismatch (p ={" "}
          {r.sampleRatioMismatch.pValue.toExponential(2)}): the observed split differs from the
          weights more than chance allows. Check for bots, caching or redirects before trusting the
          results.
        </p>
      )}
      <p class="actions" data-goal={goal}>
        <span class="muted">Goal event:</span>
        {(names.length ? names : [goal]).map((n) => (
          <a
            key={n}
            href={`?goal${e.id}=${encodeURIComponent(n)}#exp-${e.id}`}
            aria-current={n === goal ? "true" : undefined}
          >
            {n}
          </a>
        ))}
      </p>
      <TableWrap label={`Results of ${e.name}`}>
        <thead>
          <tr>
            <th data-col="variant">Variant</th>
            <th data-col="exposures" class="num">Exposures</th>
            <th data-col="split" class="num">Split (expected)</th>
            <th data-col="events" class="num">{goal}</th>
            <th data-col="conversion" class="num">Conversion</th>
            <th data-col="errors" class="num">5xx</th>
            <th data-col="p95" class="num">p95</th>
            <th data-col="verdict">Verdict (any-time 95 % sequence)</th>
            <th data-col="uplift">Uplift vs control (fixed 95 % CI)</th>
            <th data-col="last-seen">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {r.variants.map((v) => (
            <tr key={v.variantId}>
              <td data-col="variant">
                {v.label} <span class="muted">({v.transformProfile ?? "control"})</span>
              </td>
              <td data-col="exposures" class="num">{formatCount(v.exposures)}</td>
              <td data-col="split" class="num">{pct(v.actualSplit)} ({pct(v.expectedSplit)})</td>
              <td data-col="events" class="num">{formatCount(v.eventCount)}</td>
              <td data-col="conversion" class="num">{pct(v.conversionRate)}</td>
              <td data-col="errors" class="num">{pct(v.errorRate)}</td>
              <td data-col="p95" class="num">{p95Text(v.p95Ms)}</td>
              <td data-col="verdict">
                {v.sequential
                  ? `${v.sequential.summary} (${
                    ppRange(v.sequential.csLower, v.sequential.csUpper)
                  })`
                  : v.variantId === r.controlVariantId
                  ? "baseline"
                  : "\u2014"}
                {v.sequential?.verdict === "variant_wins" && t.can("editor") &&
                  (e.status === "active" || e.status === "stopped") && (
                  <ApiForm
                    api={`${t.api}/ai-experiments/${e.id}/promote`}
                    submit="Promote winner"
                    busy={`Promoting\u2026`}
                    confirm={`Serve ${v.variantKey} (${v.transformProfile}) to everyone on this route?`}
                    done="Promoted: every visitor on the route now gets this variant"
                    layout="inline"
                    label={`Promote ${v.variantKey}`}
                  >
                    <Hidden name="variantId:number" value={String(v.variantId)} />
                    <Hidden name="goal" value={goal} />
                  </ApiForm>
                )}
              </td>
              <td data-col="uplift">
                {v.uplift
                  ? `${pp(v.uplift.absolute)} (${ppRange(v.uplift.ciLower, v.uplift.ciUpper)})`
                  : v.variantId === r.controlVariantId
                  ? "baseline"
                  : "\u2014"}
              </td>
              <td data-col="last-seen">
                <Time at={v.lastSeenAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableWrap>
      <div class="grid2">
        <BarChart
          title="Exposures per variant"
          labels={labels}
          series={[{ name: "Exposures", values: r.variants.map((v) => v.exposures) }]}
          format={formatCount}
        />
        <BarChart
          title={`Conversion per variant (${goal})`}
          labels={labels}
          series={[{ name: "Conversion rate", values: r.variants.map((v) => v.conversionRate) }]}
          format={pct}
        />
      </div>
    </>
  );
}

/**
 * One experiment: its state, variants, lifecycle actions, editor (editors) and results.
 * Long: one card's markup: the status, the variants table (key, label, weight, profile), the
 * lifecycle actions (each its own confirmed form), the editor and the results.
 */
function ExperimentCard(
  { t, e, editor, results }: {
    t: Parameters<TenantAreaPage>[0];
    e: ExperimentView;
    editor: boolean;
    results: Awaited<ReturnType<typeof Results>>;
  },
) {
  return (
    <section class="card" id={`exp-${e.id}`} aria-label={e.name}>
      <h2>
        {e.name} <Badge tone={TONE[e.status as keyof typeof TONE] ?? "neutral"}>{e.status}</Badge>
      </h2>
      {e.status === "stopped" && (
        <p class="notice error" role="alert">
          Stopped <Time at={e.stoppedAt} />:{" "}
          {e.stopReason}. Every visitor on the route gets control. Fix the variant, then activate
          again, or archive.
        </p>
      )}
      {e.status === "promoted" && (
        <p class="notice ok">
          Promoted: every visitor on the route gets{" "}
          {e.variants.find((v) => v.id === e.promotedVariantId)?.key ?? "the winner"}.
        </p>
      )}
      <p class="muted">
        #{e.id} · route {e.routeMatch} <code>{e.routePattern}</code> · created{" "}
        <Time at={e.createdAt} />
        {e.guardrails && ` · guardrails: ${guardrailText(e.guardrails)}`}
      </p>
      <TableWrap label={`Variants of ${e.name}`}>
        <thead>
          <tr>
            <th>Key</th>
            <th>Label</th>
            <th class="num">Weight</th>
            <th>Profile</th>
          </tr>
        </thead>
        <tbody>
          {e.variants.map((v) => (
            <tr key={v.id}>
              <td>
                <code>{v.key}</code>
              </td>
              <td>{v.label}</td>
              <td class="num">{v.weight}</td>
              <td>{v.transformProfile ?? <span class="muted">control</span>}</td>
            </tr>
          ))}
        </tbody>
      </TableWrap>
      {editor && e.status !== "archived" && (
        <div class="actions">
          {e.status !== "active" && (
            <ApiForm
              api={`${t.api}/ai-experiments/${e.id}`}
              method="PATCH"
              submit="Activate"
              busy={`Activating\u2026`}
              done="{name} is active"
              layout="inline"
              label={`Activate ${e.name}`}
            >
              <Hidden name="status" value="active" />
            </ApiForm>
          )}
          {e.status === "active" && <BackToDraft t={t} e={e} />}
          <ApiForm
            api={`${t.api}/ai-experiments/${e.id}`}
            method="DELETE"
            submit="Archive"
            busy={`Archiving\u2026`}
            confirm={`Archive ${e.name}? Traffic is no longer split; results stay.`}
            done="Archived"
            layout="inline"
            danger
            label={`Archive ${e.name}`}
          />
        </div>
      )}
      {editor && e.status !== "archived" && <ExperimentEditor t={t} e={e} />}
      <h3>Results</h3>
      {results}
    </section>
  );
}

export const experimentsPage: TenantAreaPage = async (t) => {
  const list = await listExperiments(t.s, t.tenant.id);
  const editor = t.can("editor");
  const results = await Promise.all(list.map((e) => Results(t, e)));
  return (
    <>
      <p class="muted">
        An experiment splits API requests on a route between variants: each variant applies a
        transform profile, or none (control). Conversions come from the tracker in the SDK.
      </p>
      {!editor && <Refusal role={t.role} need="editor" what="create or change experiments" />}
      {list.length === 0 && (
        <Empty title="No experiments yet" name="experiments">
          Create one below with a control and a variant whose profile has an active rule under{" "}
          <a href={`${t.href}/ai`}>AI transforms</a>.
        </Empty>
      )}
      {list.map((e, i) => (
        <ExperimentCard key={e.id} t={t} e={e} editor={editor} results={results[i]} />
      ))}
      {editor && (
        <section class="card">
          <h2>Create an experiment</h2>
          <ApiForm
            api={`${t.api}/ai-experiments`}
            submit="Create experiment"
            busy={`Creating\u2026`}
            done="Experiment {name} created as a draft: activate it when ready"
            label="Create an experiment"
          >
            <Field name="name" label="Name" required placeholder="Formal vs casual titles" />
            <Field
              name="routePattern"
              label="Route"
              placeholder="/posts"
              hint="API path after /~api"
            />
            <Select name="routeMatch" label="Match" options={ROUTE_MATCHES} value="prefix" />
            <VariantFields rows={blankRows(NEW_VARIANT_ROWS)} required={2} />
            <GuardrailFields />
          </ApiForm>
        </section>
      )}
    </>
  );
};
