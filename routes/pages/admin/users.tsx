/** GET /admin/users (search, paged) and /admin/users/:id (view, block, plan, password reset). */
import { currentPeriod } from "../../../lib/usage/query.ts";
import type { AdminCtx } from "./shell.tsx";
import { searchUsers } from "../../../lib/admin/user_search.ts";
import { adminUserView } from "../../../lib/admin/users.ts";
import { userDaily } from "../../../lib/admin/daily.ts";
import { billingView } from "../../../lib/billing/state.ts";
import { findBilling } from "../../../lib/billing/account.ts";
import { BarChart } from "../../../components/charts/BarChart.tsx";
import { Badge, Empty, TableWrap, Time } from "../../../components/ui.tsx";
import { formatBytes } from "../../../lib/dashboard/format.ts";
import { UserActions } from "../../../components/admin/UserActions.tsx";
import { periodParam } from "./overview.tsx";
import { badRequest } from "../../../lib/errors.ts";
import { PeriodPicker } from "../../../components/admin/PeriodPicker.tsx";

const PAGE = 50;
const MAX_PAGE = 10_000;

/** The `page` query (1-based, default 1); 400 naming it when malformed. */
function pageParam(a: AdminCtx): number {
  const raw = a.c.req.query("page") || "1";
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_PAGE)) {
    throw badRequest(`Invalid page: must be an integer from 1 to ${MAX_PAGE}`);
  }
  return n;
}

// Long: one page's markup: the search form, the users table (email, name, plan, status, sign-up)
// and the pager links; one data load.
export async function adminUsersPage(a: AdminCtx) {
  const q = (a.c.req.query("q") ?? "").slice(0, 254);
  const page = pageParam(a);
  const found = await searchUsers(a.s, { q, limit: PAGE, offset: (page - 1) * PAGE });
  const link = (p: number) =>
    `/admin/users?${new URLSearchParams({
      ...(q ? { q } : {}),
      ...(p > 1 ? { page: String(p) } : {}),
    })}`
      .replace(/\?$/, "");
  const first = (page - 1) * PAGE + 1;
  return (
    <>
      <form method="get" action="/admin/users" class="row picker" role="search" aria-label="Users">
        <div class="field">
          <label for="user-q">Email or name contains</label>
          <input id="user-q" name="q" type="search" value={q} autocomplete="off" />
        </div>
        <button type="submit">Search</button>
      </form>
      {found.users.length === 0
        ? (
          <Empty
            name={page > 1 ? "page" : q ? "matches" : "users"}
            title={page > 1
              ? `No users on page ${page}`
              : q
              ? `No user matches \u201c${q}\u201d`
              : "No users yet"}
          >
            {page > 1
              ? <a href={link(1)}>Back to the first page</a>
              : q
              ? "Try part of the email address, or clear the search."
              : "Users appear here once they sign up."}
          </Empty>
        )
        : (
          <TableWrap label="Users">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Plan</th>
                <th scope="col">Status</th>
                <th scope="col">Signed up</th>
              </tr>
            </thead>
            <tbody>
              {found.users.map((u) => (
                <tr key={u.id}>
                  <td>
                    <a href={`/admin/users/${encodeURIComponent(u.id)}`}>{u.email}</a>
                    {u.isAdmin && (
                      <>
                        <Badge tone="neutral">admin</Badge>
                      </>
                    )}
                  </td>
                  <td>{u.name ?? <span class="muted">{`\u2014`}</span>}</td>
                  <td>
                    {u.plan}
                    {u.adminOverride && <span class="muted">(set by admin)</span>}
                  </td>
                  <td>
                    {u.blocked
                      ? <Badge tone="error">blocked</Badge>
                      : <Badge tone="ok">active</Badge>}
                  </td>
                  <td>
                    <Time at={u.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      {(page > 1 || found.hasMore) && found.users.length > 0 && (
        <nav class="actions" aria-label="Pages of users">
          <span class="muted">
            Users {first}
            {`\u2013`}
            {first + found.users.length - 1}, newest first
          </span>
          {page > 1 && <a href={link(page - 1)}>Newer</a>}
          {found.hasMore && <a href={link(page + 1)}>Older</a>}
        </nav>
      )}
    </>
  );
}

// Long: one page's markup: the account figures, the actions (components/admin/UserActions.tsx) and
// the traffic chart and table of the user's tenants; no logic but the data load.
export async function adminUserPage(a: AdminCtx) {
  const id = a.c.req.param("id") ?? "";
  const u = await adminUserView(a.s, id); // 404 page for an unknown id
  const period = periodParam(a);
  const daily = await userDaily(a.s, u.id, period);
  const billing = billingView(a.s, await findBilling(a.s, u.id));
  return {
    title: u.email,
    content: (
      <>
        <p class="muted crumb">
          <a href="/admin/users">Users</a> / user {u.id}
        </p>
        <section class="card">
          <h2>Account</h2>
          <dl class="grid">
            <dt>Email</dt>
            <dd>{u.email}</dd>
            <dt>Name</dt>
            <dd>{u.name ?? <span class="muted">not set</span>}</dd>
            <dt>Status</dt>
            <dd>
              {u.blocked
                ? (
                  <>
                    <Badge tone="error">blocked</Badge> {u.blockedReason ?? ""}
                  </>
                )
                : <Badge tone="ok">active</Badge>}
            </dd>
            <dt>Master admin</dt>
            <dd>{u.isAdmin ? "yes (ADMIN_EMAILS)" : "no"}</dd>
            <dt>Plan</dt>
            <dd>
              {billing.plan}
              {billing.adminOverride ? " (set by an admin)" : ""}
            </dd>
            <dt>Active access tokens</dt>
            <dd>{u.activeTokens}</dd>
            <dt>Signed up</dt>
            <dd>
              <Time at={u.createdAt} />
            </dd>
            <dt>Tenants</dt>
            <dd>
              {u.tenants.length === 0 ? <span class="muted">none</span> : (
                <ul class="plain">
                  {u.tenants.map((t) => (
                    <li key={t.slug}>
                      <a href={`/dashboard/${encodeURIComponent(t.slug)}`}>{t.slug}</a> ({t.role})
                      {" · "}
                      <a
                        href={`/admin/tenants/${encodeURIComponent(t.slug)}`}
                        aria-label={`Revenue and cost of ${t.slug}`}
                      >
                        revenue and cost
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </section>
        <UserActions
          user={{ id: u.id, email: u.email, name: u.name, blocked: u.blocked }}
          plan={billing.plan}
          adminOverride={billing.adminOverride}
          payments={billing.enabled}
          self={u.id === a.adminUserId}
        />
        <section class="card">
          <h2>Traffic of this user's tenants</h2>
          <PeriodPicker
            action={`/admin/users/${encodeURIComponent(u.id)}`}
            period={period}
            current={currentPeriod(a.s.clock.now())}
          />
          <BarChart
            title={`Bandwidth per day, ${period}, over ${u.tenants.length} tenant(s)`}
            labels={daily.days.map((d) => d.day)}
            shortLabel={(d) => d.slice(8, 10)}
            series={[{ name: "Bandwidth", values: daily.days.map((d) => d.bytes) }]}
            format={formatBytes}
            empty={u.tenants.length === 0
              ? "This user belongs to no tenant."
              : "No traffic on this user's tenants in this month."}
          />
        </section>
      </>
    ),
  };
}
