/** Logs: sampled request logs with status and cache filters (links) and keyset paging. */
import type { TenantAreaPage } from "./shell.tsx";
import { Badge, Bytes, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { listRequestLogs, type LogFilter } from "../../../lib/usage/analytics.ts";

const CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
const CACHE = ["HIT", "MISS", "STALE", "BYPASS"] as const;
const PAGE = 50;

export const logsPage: TenantAreaPage = async (t) => {
  const q = t.c.req.query();
  const cls = CLASSES.find((c) => c === q.status);
  const cache = CACHE.find((c) => c === q.cache);
  const before = /^\d{1,15}$/.test(q.before ?? "") ? Number(q.before) : undefined;
  const f: LogFilter = { limit: PAGE, beforeId: before, cache };
  if (cls) f.status = { min: Number(cls[0]) * 100, max: Number(cls[0]) * 100 + 100 };
  const page = await listRequestLogs(t.s, t.tenant.id, f);
  const link = (p: Record<string, string | undefined>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({ status: cls, cache, ...p })) if (v) u.set(k, v);
    const s = u.toString();
    return `${t.href}/logs${s ? `?${s}` : ""}`;
  };
  const filterLinks = (key: "status" | "cache", values: readonly string[], cur?: string) => (
    <p class="actions">
      <span class="muted">{key === "status" ? "Status:" : "Cache:"}</span>
      <a
        href={link({ [key]: undefined, before: undefined })}
        aria-current={cur ? undefined : "true"}
      >
        all
      </a>
      {values.map((v) => (
        <a
          key={v}
          href={link({ [key]: v, before: undefined })}
          aria-current={cur === v ? "true" : undefined}
        >
          {v}
        </a>
      ))}
    </p>
  );
  return (
    <>
      <p class="muted">A sample of requests through the edge, newest first, kept 30 days.</p>
      {filterLinks("status", CLASSES, cls)}
      {filterLinks("cache", CACHE, cache)}
      {page.entries.length === 0
        ? (
          <Empty title={cls || cache || before ? "No requests match" : "No request logs yet"}>
            {cls || cache || before ? <a href={`${t.href}/logs`}>Clear the filters</a> : (
              <>
                Requests to <code>{t.view.proxyBase}</code> appear here within a minute.
              </>
            )}
          </Empty>
        )
        : (
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
              {page.entries.map((e) => (
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
                  </td>
                  <td>{e.cache ?? "—"}</td>
                  <td class="num">
                    <Bytes n={e.bytes} />
                  </td>
                  <td class="num">{e.durationMs ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      <p class="actions">
        {before !== undefined && <a href={link({ before: undefined })}>Newest</a>}
        {page.nextBeforeId !== null && (
          <a href={link({ before: String(page.nextBeforeId) })}>Older →</a>
        )}
      </p>
    </>
  );
};
