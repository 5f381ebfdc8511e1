/** The runs table of the AI transforms page: filters and paging are links (GET reads). */
import type { TenantPageCtx } from "./shell.tsx";
import { Badge, TableWrap, Time } from "../../../components/ui.tsx";
import { listRuns } from "../../../lib/ai/runs.ts";

const MODES = ["preview", "runtime"] as const;
const STATUSES = ["applied", "partial", "passthrough", "error"] as const;
const PAGE = 25;
const TONE = { applied: "ok", partial: "warn", passthrough: "neutral", error: "error" } as const;

// Long: one section's markup: the mode and status filter links, the runs table (a row per run with
// its reason, fields and tokens) and the pager; filters are links, so there is no form logic.
export async function aiRunsSection(t: TenantPageCtx) {
  const q = t.c.req.query();
  const mode = MODES.find((m) => m === q.mode);
  const status = STATUSES.find((s) => s === q.status);
  const offset = /^\d{1,6}$/.test(q.offset ?? "") ? Number(q.offset) : 0;
  const { runs, total } = await listRuns(t.s, t.tenant.id, { limit: PAGE, offset, mode, status });
  const link = (p: Record<string, string | undefined>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({ mode, status, ...p })) if (v) u.set(k, v);
    return `${t.href}/ai?${u}#runs`;
  };
  const filter = (key: "mode" | "status", values: readonly string[], cur?: string) => (
    <p class="actions">
      <span class="muted">{key === "mode" ? "Mode:" : "Status:"}</span>
      <a
        href={link({ [key]: undefined, offset: undefined })}
        aria-current={cur ? undefined : "true"}
      >
        all
      </a>
      {values.map((v) => (
        <a
          key={v}
          href={link({ [key]: v, offset: undefined })}
          aria-current={cur === v ? "true" : undefined}
        >
          {v}
        </a>
      ))}
    </p>
  );
  return (
    <section class="card" id="runs">
      <h2>Runs</h2>
      {filter("mode", MODES, mode)}
      {filter("status", STATUSES, status)}
      {runs.length === 0
        ? (
          <p class="muted">
            No runs{mode || status
              ? " match the filters"
              : " yet: preview a rule or send a request with ?transform="}.
          </p>
        )
        : (
          <TableWrap label="Transform runs">
            <thead>
              <tr>
                <th>When</th>
                <th>Mode</th>
                <th>Profile / path</th>
                <th>Status</th>
                <th class="num">Fields</th>
                <th class="num">Tokens</th>
                <th class="num">ms</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Time at={r.timestamp} />
                  </td>
                  <td>{r.mode}</td>
                  <td>{r.profile ?? "\u2014"} {r.apiPath && <code>{r.apiPath}</code>}</td>
                  <td>
                    <Badge tone={TONE[r.status as keyof typeof TONE] ?? "neutral"}>
                      {r.status}
                    </Badge>
                    {r.reason ? ` ${r.reason}` : ""}
                  </td>
                  <td class="num">{r.fieldsTransformed}/{r.fieldsAttempted}</td>
                  <td class="num">{r.tokens.total}</td>
                  <td class="num">{Math.round(r.latencyMs)}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      <p class="actions">
        <span class="muted">{total} run(s)</span>
        {offset > 0 && (
          <a href={link({ offset: String(Math.max(0, offset - PAGE)) })}>{`\u2190`} Newer</a>
        )}
        {offset + PAGE < total && (
          <a href={link({ offset: String(offset + PAGE) })}>Older {`\u2192`}</a>
        )}
      </p>
    </section>
  );
}
