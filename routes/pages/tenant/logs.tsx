/**
 * Logs: every error and a sample of successes, filtered by path prefix, status, cache state
 * and time (a GET form), with keyset paging.
 */
import type { TenantAreaPage } from "./shell.tsx";
import { Badge, Bytes, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { listRequestLogs, type LogFilter } from "../../../lib/usage/analytics.ts";
import { BOT_LOGS_PER_MINUTE, REQUEST_LOG_RETENTION_DAYS } from "../../../lib/usage/aggregator.ts";
import { formatPercent } from "../../../lib/dashboard/format.ts";

const CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
const CACHE = ["HIT", "MISS", "STALE", "BYPASS"] as const;
const PAGE = 50;

/** A datetime-local value (read as UTC) or an ISO time with a zone; else undefined. */
function utcTime(v: string | undefined): Date | undefined {
  if (!v) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00Z` : v;
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/i.test(iso)) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? new Date(t) : undefined;
}

type Entries = Awaited<ReturnType<typeof listRequestLogs>>["entries"];

/** The GET filter form: path prefix, status class or code, cache state, from/to (UTC). */
function LogFilterForm(
  { action, path, status, cache, from, to, filtered }: {
    action: string;
    path?: string;
    status?: string;
    cache?: string;
    from?: string;
    to?: string;
    filtered: boolean;
  },
) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      class="row picker"
      aria-label="Filter logs"
    >
      <div class="field">
        <label for="log-path">Path prefix</label>
        <input id="log-path" name="path" value={path ?? ""} placeholder="/~api/" />
      </div>
      <div class="field">
        <label for="log-status">Status</label>
        <input
          id="log-status"
          name="status"
          value={status ?? ""}
          placeholder="4xx or 404"
          size={6}
        />
      </div>
      <div class="field">
        <label for="log-cache">Cache</label>
        <select id="log-cache" name="cache">
          <option value="" selected={!cache}>all</option>
          {CACHE.map((c) => <option key={c} value={c} selected={cache === c}>{c}</option>)}
        </select>
      </div>
      <div class="field">
        <label for="log-from">From (UTC)</label>
        <input id="log-from" name="from" value={from ?? ""} placeholder="2026-01-31T08:00" />
      </div>
      <div class="field">
        <label for="log-to">To (UTC)</label>
        <input id="log-to" name="to" value={to ?? ""} placeholder="2026-01-31T08:00" />
      </div>
      <button type="submit">Filter</button>
      {filtered && <a href={action}>Clear</a>}
    </form>
  );
}

/** One page of log entries, newest first. */
function LogTable({ entries }: { entries: Entries }) {
  return (
    <TableWrap label="Request logs">
      <thead>
        <tr>
          <th>When</th>
          <th>Method</th>
          <th>Path</th>
          <th class="num">Status</th>
          <th>Cache</th>
          <th class="num">Size</th>
          <th class="num">ms</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td>
              <Time at={e.ts} />
            </td>
            <td>{e.method}</td>
            <td>
              <code>{e.path}</code>
            </td>
            <td class="num">
              <Badge tone={e.status >= 500 ? "error" : e.status >= 400 ? "warn" : "ok"}>
                {e.status}
              </Badge>
              {e.originStatus !== null && e.originStatus >= 500 && (
                <>
                  {" " /* apart from the badge, not "502origin 500" */}
                  <span class="muted" data-origin-status={e.originStatus}>
                    origin {e.originStatus}
                  </span>
                </>
              )}
            </td>
            <td>{e.cache ?? "\u2014"}</td>
            <td class="num">
              <Bytes n={e.bytes} />
            </td>
            <td class="num">{e.durationMs ?? "\u2014"}</td>
          </tr>
        ))}
      </tbody>
    </TableWrap>
  );
}

export const logsPage: TenantAreaPage = async (t) => {
  const q = t.c.req.query();
  const cls = CLASSES.find((c) => c === q.status);
  const code = /^[1-5]\d\d$/.test(q.status ?? "") ? Number(q.status) : undefined;
  const cache = CACHE.find((c) => c === q.cache);
  const path = q.path?.startsWith("/") ? q.path.slice(0, 2048) : undefined;
  const from = utcTime(q.from);
  const to = utcTime(q.to);
  const before = /^\d{1,15}$/.test(q.before ?? "") ? Number(q.before) : undefined;
  const f: LogFilter = { limit: PAGE, beforeId: before, cache, pathPrefix: path, from, to };
  if (cls) f.status = { min: Number(cls[0]) * 100, max: Number(cls[0]) * 100 + 100 };
  else if (code) f.status = code;
  const page = await listRequestLogs(t.s, t.tenant.id, f);
  const filtered = Boolean(cls || code || cache || path || from || to);
  const kept = { status: q.status, cache, path, from: q.from, to: q.to };
  const link = (p: Record<string, string | undefined>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...kept, ...p })) if (v) u.set(k, v);
    const s = u.toString();
    return `${t.href}/logs${s ? `?${s}` : ""}`;
  };
  const rate = t.s.config.usage.requestLogSampleRate;
  // The setting's name is for master admins: a customer cannot change it.
  const operator = t.c.get("auth")?.isAdmin === true;
  return (
    <>
      <p class="muted" data-log-rate={String(rate)}>
        Every request that ended in an error (4xx, 5xx, upstream failure) is kept; refused bots up
        to {BOT_LOGS_PER_MINUTE} a minute; successful requests are sampled at{" "}
        <strong>{formatPercent(rate, rate > 0 && rate < 0.01 ? 2 : 0)}</strong> ({operator && (
          <>
            <code data-operator-setting="REQUEST_LOG_SAMPLE_RATE">
              REQUEST_LOG_SAMPLE_RATE
            </code>,{" "}
          </>
        )}at most {t.s.config.usage.requestLogMaxPerSecond || "\u221e"} a second). Kept{" "}
        {REQUEST_LOG_RETENTION_DAYS} days, newest first. Exact totals are under{" "}
        <a href={`${t.href}/usage`}>Usage</a>.
      </p>
      <section class="card">
        <LogFilterForm
          action={`${t.href}/logs`}
          path={path}
          status={q.status}
          cache={cache}
          from={q.from}
          to={q.to}
          filtered={filtered}
        />
      </section>
      {page.entries.length === 0
        ? (
          <Empty
            title={filtered || before ? "No requests match" : "No request logs yet"}
            name="logs"
          >
            {filtered || before ? <a href={`${t.href}/logs`}>Clear the filters</a> : (
              <>
                Requests to <code>{t.view.proxyBase}</code> appear here within a minute.
              </>
            )}
          </Empty>
        )
        : <LogTable entries={page.entries} />}
      <p class="actions">
        {before !== undefined && <a href={link({ before: undefined })}>Newest</a>}
        {page.nextBeforeId !== null && (
          <a href={link({ before: String(page.nextBeforeId) })}>Older {`\u2192`}</a>
        )}
      </p>
    </>
  );
};
