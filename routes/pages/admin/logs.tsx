/** GET /admin/logs: this instance's recent log entries, filtered by least level, paged by cursor. */
import type { AdminCtx } from "./shell.tsx";
import { listLogs } from "../../../lib/admin/platform/logs.ts";
import type { LogLevel } from "../../../lib/log.ts";
import { badRequest } from "../../../lib/errors.ts";
import { Badge, type BadgeTone, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { ApiForm, Field, Select } from "../../../components/ApiForm.tsx";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];
const TONE: Record<LogLevel, BadgeTone> = {
  debug: "neutral",
  info: "neutral",
  warn: "warn",
  error: "error",
};
const PAGE = 50;

function query(a: AdminCtx): { level?: LogLevel; cursor?: number } {
  const level = a.c.req.query("level") || undefined;
  if (level !== undefined && !LEVELS.includes(level as LogLevel)) {
    throw badRequest(`Invalid level: must be one of ${LEVELS.join(", ")}`);
  }
  const raw = a.c.req.query("cursor") || undefined;
  if (raw !== undefined && !/^[1-9]\d{0,15}$/.test(raw)) {
    throw badRequest("Invalid cursor: must be a positive integer");
  }
  return { level: level as LogLevel | undefined, cursor: raw ? Number(raw) : undefined };
}

export function adminLogsPage(a: AdminCtx) {
  const q = query(a);
  const r = listLogs(a.s, { limit: PAGE, ...q });
  const older = r.nextCursor === null ? null : `/admin/logs?${new URLSearchParams({
    ...(q.level ? { level: q.level } : {}),
    cursor: String(r.nextCursor),
  })}`;
  return (
    <>
      <p class="muted">
        The last {r.capacity} entries of this instance (in memory, lost on restart). Logging keeps
        {" "}
        <strong>{r.minLevel}</strong> and above.
      </p>
      <section class="card">
        <form method="get" action="/admin/logs" class="row picker" aria-label="Filter logs">
          <div class="field">
            <label for="log-level">Least level</label>
            <select id="log-level" name="level">
              <option value="" selected={!q.level}>all</option>
              {LEVELS.map((l) => <option key={l} value={l} selected={q.level === l}>{l}</option>)}
            </select>
          </div>
          <button type="submit">Filter</button>
        </form>
        {r.entries.length === 0
          ? (
            <Empty title={q.level ? `No ${q.level} entries or worse` : "No log entries"}>
              Write a test entry below to check that logging works.
            </Empty>
          )
          : (
            <TableWrap label="Log entries">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Level</th>
                  <th scope="col">Message</th>
                  <th scope="col">Fields</th>
                </tr>
              </thead>
              <tbody>
                {r.entries.map((e) => (
                  <tr key={e.seq}>
                    <td>
                      <Time at={e.t} />
                    </td>
                    <td>
                      <Badge tone={TONE[e.level]}>{e.level}</Badge>
                    </td>
                    <td>{e.msg}</td>
                    <td>
                      {Object.keys(e.fields).length === 0
                        ? ""
                        : <code class="wrap">{JSON.stringify(e.fields)}</code>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
        {older && (
          <p>
            <a href={older}>Older entries</a>
          </p>
        )}
      </section>
      <section class="card">
        <h2>Write a test entry</h2>
        <ApiForm api="/api/admin/logs-test" submit="Write entry" done="Entry written (seq {seq})">
          <Field name="message" label="Message" placeholder="admin log test" />
          <Select name="level" label="Level" options={LEVELS} value="info" />
        </ApiForm>
      </section>
    </>
  );
}
