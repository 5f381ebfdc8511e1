/** Audit: who changed what and when, with people's emails instead of ids, paged by id. */
import { inArray } from "drizzle-orm";
import type { TenantAreaPage } from "./shell.tsx";
import { Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { listAudit } from "../../../lib/audit/mod.ts";
import { users } from "../../../lib/db/schema/mod.ts";

const PAGE = 50;

export const auditPage: TenantAreaPage = async (t) => {
  const raw = t.c.req.query("before") ?? "";
  const before = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  const { events, hasMore } = await listAudit(t.s, t.tenant.id, PAGE, before);
  const ids = [...new Set(events.map((e) => e.actorUserId).filter((x): x is string => !!x))];
  const people = ids.length
    ? await t.s.db.select({ id: users.id, email: users.email }).from(users)
      .where(inArray(users.id, ids))
    : [];
  const email = new Map(people.map((p) => [p.id, p.email]));
  return (
    <>
      {events.length === 0
        ? (
          <Empty title="No audit events yet">
            Configuration, membership and cache changes are recorded here as they happen.
          </Empty>
        )
        : (
          <TableWrap label="Audit events">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
                <th>Target</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Time at={e.createdAt} />
                  </td>
                  <td>
                    {e.actorUserId ? email.get(e.actorUserId) ?? "deleted user" : "system"}
                  </td>
                  <td>{e.action.replaceAll(".", " ").replaceAll("_", " ")}</td>
                  <td>{e.target ?? "\u2014"}</td>
                  <td>
                    {e.metadata && Object.keys(e.metadata).length > 0
                      ? (
                        <code>
                          {Object.entries(e.metadata as Record<string, unknown>).map(([k, v]) =>
                            `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`
                          ).join(", ")}
                        </code>
                      )
                      : "\u2014"}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      <p class="actions">
        {before !== undefined && <a href={`${t.href}/audit`}>Newest</a>}
        {hasMore && (
          <a href={`${t.href}/audit?before=${events[events.length - 1].id}`}>Older {`\u2192`}</a>
        )}
      </p>
    </>
  );
};
