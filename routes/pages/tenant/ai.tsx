/** AI transforms: token usage against caps, rules per preset, preview, regenerate, runs. */
import type { TenantAreaPage, TenantPageCtx } from "./shell.tsx";
import { ApiForm, Field, InlineAction, Select } from "../../../components/ApiForm.tsx";
import { Island } from "../../../components/Island.tsx";
import { Badge, Empty, Refusal } from "../../../components/ui.tsx";
import { type AiRule, listRules, ruleView } from "../../../lib/ai/rules.ts";
import { PRESET_IDS } from "../../../lib/ai/rule_schema.ts";
import { tenantAiLimits } from "../../../lib/ai/settings.ts";
import { usageView } from "../../../lib/ai/usage.ts";
import { aiEngineFor } from "../../../lib/ai/engine.ts";
import { formatCount } from "../../../lib/dashboard/format.ts";
import { aiRunsSection } from "./ai_runs.tsx";
import { listOutputs } from "../../../lib/ai/outputs.ts";
import type { AiUsageView, OutputView } from "../../../lib/ai/view_schema.ts";
import type { AiLimits } from "../../../lib/ai/snapshot_types.ts";
import { OutputsTable } from "./ai_outputs.tsx";

/** Newest outputs shown per rule on this page; the review page has them all. */
const OUTPUTS_PER_RULE = 10;
const REVIEW_OPTIONS = [
  { value: "auto", label: "Auto: serve new outputs at once" },
  { value: "review", label: "Review: serve only approved outputs" },
];

const PRESET_LABEL: Record<string, string> = {
  rewrite_tone: "Rewrite tone",
  shorten: "Shorten",
  translate: "Translate",
  custom: "Custom instruction",
};
const PRESET_OPTIONS = PRESET_IDS.map((p) => ({ value: p, label: PRESET_LABEL[p] }));
const TONE = { active: "ok", draft: "neutral", paused: "warn" } as const;
type RuleView = ReturnType<typeof ruleView>;

/** The preset-dependent fields; CSS shows only the chosen preset's (`form:has(...)`). */
function PresetFields({ rule }: { rule?: RuleView }) {
  return (
    <>
      <Field
        name="tone"
        label="Tone"
        value={rule?.tone}
        placeholder="formal, casual, playful"
        class="only-rewrite_tone"
      />
      <Field
        name="targetLanguage"
        label="Target language"
        value={rule?.targetLanguage}
        placeholder="de"
        class="only-translate"
      />
      <Field
        name="customInstruction"
        label="Instruction"
        type="textarea"
        value={rule?.customInstruction}
        class="only-custom"
      />
      <Field
        name="constraints"
        label="Constraints (optional)"
        type="textarea"
        value={rule?.constraints}
        class="only-custom"
      />
      <Field
        name="example.input"
        label="Example input (optional)"
        value={rule?.example?.input}
        class="only-custom"
      />
      <Field
        name="example.output"
        label="Example output (optional)"
        value={rule?.example?.output}
        class="only-custom"
      />
    </>
  );
}

/** What a rule does: fields, profile, route, review mode and its preset's settings. */
function RuleFacts({ r }: { r: RuleView }) {
  return (
    <dl class="grid">
      <dt>Fields</dt>
      <dd>
        <code>{r.fieldSelector}</code>
      </dd>
      <dt>Profile</dt>
      <dd>
        <code>?transform={r.profile}</code>
      </dd>
      <dt>Route</dt>
      <dd>{r.routePattern ? <code>{r.routePattern}</code> : "every path"}</dd>
      <dt>Review</dt>
      <dd>{r.reviewMode === "review" ? "approved outputs only" : "automatic"}</dd>
      {r.tone && (
        <>
          <dt>Tone</dt>
          <dd>{r.tone}</dd>
        </>
      )}
      {r.targetLanguage && (
        <>
          <dt>Language</dt>
          <dd>{r.targetLanguage}</dd>
        </>
      )}
      {r.customInstruction && (
        <>
          <dt>Instruction</dt>
          <dd>{r.customInstruction}</dd>
        </>
      )}
    </dl>
  );
}

/** Status changes and delete, for editors. */
function RuleActions({ r, base }: { r: RuleView; base: string }) {
  const action = (path: string, label: string, done: string) => (
    <InlineAction
      api={`${base}/${path}`}
      submit={label}
      done={done}
      label={`${label} rule ${r.id}`}
    />
  );
  return (
    <div class="actions">
      {r.status === "draft" && action("activate", "Activate", "Rule is active on live traffic")}
      {r.status === "active" && action("activate", "Back to draft", "Rule is a draft again")}
      {r.status !== "paused" && action("pause", "Pause", "Rule paused")}
      {r.status === "paused" && action("resume", "Resume", "Rule active again")}
      <ApiForm
        api={base}
        method="DELETE"
        submit="Delete"
        busy={`Deleting\u2026`}
        danger
        layout="inline"
        confirm={`Delete rule ${r.id}? It stops running at once.`}
        done="Rule deleted"
        label={`Delete rule ${r.id}`}
      />
    </div>
  );
}

function RuleEditForm({ r, base }: { r: RuleView; base: string }) {
  return (
    <details>
      <summary>Edit</summary>
      <ApiForm
        api={base}
        method="PUT"
        submit="Save rule"
        busy={`Saving\u2026`}
        done="Rule {id} saved (version {version})"
        label={`Edit rule ${r.id}`}
      >
        <Select name="presetId" label="Preset" options={PRESET_OPTIONS} value={r.presetId} />
        <Field name="fieldSelector" label="Field selector" value={r.fieldSelector} required />
        <Field name="routePattern:null" label="Route prefix" value={r.routePattern} />
        <Field name="profile" label="Profile" value={r.profile} />
        <Select name="reviewMode" label="Review" options={REVIEW_OPTIONS} value={r.reviewMode} />
        <PresetFields rule={r} />
      </ApiForm>
    </details>
  );
}

function RuleOutputs({ t, r, outputs }: { t: TenantPageCtx; r: RuleView; outputs: OutputView[] }) {
  return (
    <details open={outputs.length > 0}>
      <summary>Outputs ({outputs.length} newest)</summary>
      {outputs.length === 0
        ? (
          <p class="muted">
            No stored outputs yet: they appear once live requests are transformed.
          </p>
        )
        : <OutputsTable t={t} outputs={outputs} label={`Outputs of rule ${r.id}`} />}
      <p>
        <a href={`${t.href}/ai-review?status=pending&rule=${r.id}`}>
          Review queue of this rule {`\u2192`}
        </a>
      </p>
    </details>
  );
}

function RuleCard({ t, r, outputs }: { t: TenantPageCtx; r: RuleView; outputs: OutputView[] }) {
  const base = `${t.api}/ai-transform/rules/${r.id}`;
  const editor = t.can("editor");
  return (
    <section class="card" aria-label={`Rule ${r.id}`}>
      <h3>
        #{r.id} {PRESET_LABEL[r.presetId] ?? r.presetId}{" "}
        <Badge tone={TONE[r.status as keyof typeof TONE] ?? "neutral"}>{r.status}</Badge>
      </h3>
      <RuleFacts r={r} />
      {editor && <RuleActions r={r} base={base} />}
      {editor && <RuleEditForm r={r} base={base} />}
      <RuleOutputs t={t} r={r} outputs={outputs} />
    </section>
  );
}

function Meter({ label, used, cap }: { label: string; used: number; cap: number | null }) {
  return (
    <div class="field">
      <span>
        {label}: {formatCount(used)} tokens{cap ? ` of ${formatCount(cap)}` : " (no cap)"}
      </span>
      {cap && (
        <meter min={0} max={cap} high={cap * 0.8} value={Math.min(used, cap)} aria-label={label}>
          {used}
        </meter>
      )}
    </div>
  );
}

/** The caps and per-response limits, as a form (PUT /ai-transform/settings). */
function LimitsForm({ t, limits }: { t: TenantPageCtx; limits: AiLimits }) {
  return (
    <details>
      <summary>Edit caps and limits</summary>
      <ApiForm
        api={`${t.api}/ai-transform/settings`}
        method="PUT"
        submit="Save limits"
        busy={`Saving\u2026`}
        done="Limits saved"
        label="AI limits"
      >
        <Field
          name="monthlyTokenCap:numnull"
          label="Monthly token cap"
          type="number"
          min={1}
          value={limits.monthlyTokenCap}
          hint="Empty: no cap"
        />
        <Field
          name="dailyTokenCap:numnull"
          label="Daily token cap"
          type="number"
          min={1}
          value={limits.dailyTokenCap}
          hint="Empty: no cap"
        />
        <Field
          name="maxFieldsPerResponse:number"
          label="Fields per response"
          type="number"
          min={1}
          max={1000}
          value={limits.maxFieldsPerResponse}
        />
        <Field
          name="maxCharsPerField:number"
          label="Characters per field"
          type="number"
          min={1}
          max={8000}
          value={limits.maxCharsPerField}
          hint="8,000 at most"
        />
      </ApiForm>
    </details>
  );
}

function UsageCard({ t, usage, limits }: {
  t: TenantPageCtx;
  usage: AiUsageView;
  limits: AiLimits;
}) {
  return (
    <section class="card">
      <h2>Token usage</h2>
      <Meter
        label={`This month (${usage.monthly.period})`}
        used={usage.monthly.totalTokens}
        cap={limits.monthlyTokenCap}
      />
      <Meter
        label={`Today (${usage.daily.period})`}
        used={usage.daily.totalTokens}
        cap={limits.dailyTokenCap}
      />
      {/* PUT /ai-transform/settings is admin+ (routes/api/ai_transform.ts) */}
      {t.can("admin") ? <LimitsForm t={t} limits={limits} /> : (
        <>
          <p class="muted" data-testid="ai-limits">
            Per response: at most {formatCount(limits.maxFieldsPerResponse)} fields of{" "}
            {formatCount(limits.maxCharsPerField)} characters.
          </p>
          <Refusal role={t.role} need="admin" what="change the caps and limits" />
        </>
      )}
    </section>
  );
}

function CreateRuleCard({ t }: { t: TenantPageCtx }) {
  return (
    <section class="card">
      <h2>Create a rule</h2>
      <ApiForm
        api={`${t.api}/ai-transform/rules`}
        submit="Create rule"
        busy={`Creating\u2026`}
        done="Rule {id} created as a draft: preview it, then activate"
        label="Create a rule"
      >
        <Select name="presetId" label="Preset" options={PRESET_OPTIONS} value="rewrite_tone" />
        <Field
          name="fieldSelector"
          label="Field selector"
          required
          placeholder="items[*].title"
          hint="Dot path; [*] for every array item"
        />
        <Field name="routePattern" label="Route prefix (optional)" placeholder="/posts" />
        <Field
          name="profile"
          label="Profile"
          placeholder="default"
          hint="Requests opt in with ?transform=<profile>"
        />
        <Select name="reviewMode" label="Review" options={REVIEW_OPTIONS} value="auto" />
        <PresetFields />
      </ApiForm>
    </section>
  );
}

/** Sample content the preview starts from. */
const PREVIEW_SAMPLE = JSON.stringify(
  { title: "Our new product is here", items: [{ title: "First item" }] },
  null,
  2,
);

function PreviewCard({ t, rules }: { t: TenantPageCtx; rules: RuleView[] }) {
  return (
    <section class="card">
      <h2>Preview</h2>
      <Island
        name="PreviewPanel"
        props={{
          api: `${t.api}/ai-transform/preview`,
          rules: rules.filter((r) => r.status !== "paused").map((r) => ({
            id: r.id,
            label: `#${r.id} ${PRESET_LABEL[r.presetId]} · ${r.fieldSelector}`,
          })),
          sample: PREVIEW_SAMPLE,
          back: `${t.href}/ai`,
        }}
      />
    </section>
  );
}

function RegenerateCard({ t }: { t: TenantPageCtx }) {
  return (
    <section class="card">
      <h2>Regenerate</h2>
      <p class="muted">
        Drops cached transformed answers for a profile and path, so the next request asks the model
        again.
      </p>
      <ApiForm
        api={`${t.api}/ai-transform/regenerate`}
        submit="Regenerate"
        busy={`Regenerating\u2026`}
        done="Regenerated {profile} for {apiPath}: {status}, {stats.fieldsTransformed} field(s) transformed"
        layout="row"
        label="Regenerate"
      >
        <Field name="profile" label="Profile" required placeholder="default" />
        <Field name="apiPath" label="API path" required placeholder="/posts/1" />
      </ApiForm>
    </section>
  );
}

/** What the page shows: limits, usage, the rules and each rule's newest outputs. */
async function loadAiPage(t: TenantPageCtx) {
  const engine = aiEngineFor(t.s);
  await engine.flush();
  const limits = tenantAiLimits(t.tenant);
  const [rows, usage] = await Promise.all([
    listRules(t.s, t.tenant.id),
    usageView(t.s, t.tenant.id, limits),
  ]);
  const rules = rows.map((r: AiRule) => ruleView(r));
  const outputs = await Promise.all(
    rules.map((r) => listOutputs(t.s, t.tenant.id, { limit: OUTPUTS_PER_RULE, ruleId: r.id })),
  );
  return { limits, usage, rules, outputs, modelConfigured: !!engine.model };
}

export const aiPage: TenantAreaPage = async (t) => {
  const { limits, usage, rules, outputs, modelConfigured } = await loadAiPage(t);
  const editor = t.can("editor");
  return (
    <>
      {!modelConfigured && (
        <p class="notice warn">
          No AI model is configured (OPENAI_API_KEY): rules can be managed, but preview answers with
          an error and live requests pass through unchanged.
        </p>
      )}
      {!editor && <Refusal role={t.role} need="editor" what="create or change rules" />}
      <UsageCard t={t} usage={usage} limits={limits} />
      <h2>Rules</h2>
      {rules.length === 0 && (
        <Empty title="No rules yet" name="rules">
          Create a rule below, preview it on a sample, then activate it; requests with
          <code>?transform=&lt;profile&gt;</code> are then rewritten.
        </Empty>
      )}
      {rules.map((r, i) => <RuleCard key={r.id} t={t} r={r} outputs={outputs[i].outputs} />)}
      {editor && <CreateRuleCard t={t} />}
      {editor && rules.length > 0 && <PreviewCard t={t} rules={rules} />}
      {editor && <RegenerateCard t={t} />}
      {await aiRunsSection(t)}
    </>
  );
};
