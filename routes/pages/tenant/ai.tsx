/** AI transforms: rules per preset, status changes, preview, regenerate, runs, token usage. */
import type { TenantAreaPage } from "./shell.tsx";
import { Empty } from "../../../components/ui.tsx";
import { listRules, ruleView } from "../../../lib/ai/rules.ts";

export const aiPage: TenantAreaPage = async (t) => {
  const rules = (await listRules(t.s, t.tenant.id)).map(ruleView);
  return rules.length === 0
    ? <Empty title="No rules yet">Create a rule to rewrite fields of API responses.</Empty>
    : <ul>{rules.map((r) => <li key={r.id}>{r.presetId} {r.fieldSelector} {r.status}</li>)}</ul>;
};
