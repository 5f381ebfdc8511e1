/** Experiments: create with variants, activate (problems in place), archive, results. */
import type { TenantAreaPage } from "./shell.tsx";
import { Empty } from "../../../components/ui.tsx";
import { listExperiments } from "../../../lib/experiments/service.ts";

export const experimentsPage: TenantAreaPage = async (t) => {
  const list = await listExperiments(t.s, t.tenant.id);
  return list.length === 0
    ? <Empty title="No experiments yet">Create one to split a route between variants.</Empty>
    : <ul>{list.map((e) => <li key={e.id}>{e.name} {e.status}</li>)}</ul>;
};
