/** Members: list with role change and removal (SPEC's 403 rules explained), invites, revoke. */
import type { TenantAreaPage } from "./shell.tsx";
import { ApiForm, Field, Hidden, Select } from "../../../components/ApiForm.tsx";
import { Empty, Refusal, TableWrap, Time } from "../../../components/ui.tsx";
import { listMembers } from "../../../lib/members/service.ts";
import { listPendingInvites } from "../../../lib/members/invites.ts";
import { removeRefusal, roleChangeRefusal } from "../../../lib/members/rules.ts";
import { roleRank, ROLES } from "../../../lib/base/roles.ts";

/** Pending invites with their revoke buttons, and the invite form (admins). */
function InvitesSection(
  { t, invites, assignable }: {
    t: Parameters<TenantAreaPage>[0];
    invites: Awaited<ReturnType<typeof listPendingInvites>>;
    assignable: (typeof ROLES)[number][];
  },
) {
  return (
    <section class="card">
      <h2>Pending invites</h2>
      {invites.length === 0
        ? (
          <Empty title="No pending invites" name="invites">
            Invite someone with the form below.
          </Empty>
        )
        : (
          <TableWrap label="Pending invites">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Expires</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {invites.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td>
                    <Time at={i.expiresAt} />
                  </td>
                  <td>
                    <ApiForm
                      api={`${t.api}/members/revoke-invite`}
                      submit="Revoke"
                      busy={`Revoking\u2026`}
                      confirm={`Revoke the invite for ${i.email}? Its link stops working.`}
                      done={`Invite for ${i.email} revoked`}
                      layout="inline"
                      danger
                      label={`Revoke invite for ${i.email}`}
                    >
                      <Hidden name="inviteId:number" value={i.id} />
                    </ApiForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      <h3>Invite someone</h3>
      <ApiForm
        api={`${t.api}/members/invite`}
        submit="Send invite"
        busy={`Inviting\u2026`}
        done="Invite for {email} ({role}) created. Mail sent: {emailSent}. Share the link if it was not."
        reveal={{
          key: "token",
          label: "Accept link",
          prefix: "{origin}/invites/accept?token=",
        }}
        label="Invite someone"
      >
        <Field name="email" label="Email" type="email" required />
        <Select name="role" label="Role" options={assignable} value="viewer" />
      </ApiForm>
    </section>
  );
}

// Long: one page's markup: the members table, where each row shows the role select and the remove
// button or the reason SPEC's 403 rules refuse them; the invites are InvitesSection.
export const membersPage: TenantAreaPage = async (t) => {
  const admin = t.can("admin");
  const [members, invites] = await Promise.all([
    listMembers(t.s, t.tenant.id),
    admin ? listPendingInvites(t.s, t.tenant.id) : Promise.resolve([]),
  ]);
  const owners = members.filter((m) => m.role === "owner").length;
  const actor = { userId: t.userId, role: t.role };
  const assignable = ROLES.filter((r) =>
    roleRank(r) <= roleRank(t.role) &&
    (r !== "owner" || t.role === "owner")
  );
  return (
    <>
      {!admin && <Refusal role={t.role} need="admin" what="invite or change members" />}
      <section class="card">
        <h2>Members</h2>
        <TableWrap label="Members">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Since</th>
              {admin && <th>Actions</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => {
              const target = { userId: m.userId, role: m.role };
              const removeWhy = removeRefusal(actor, target, owners);
              const roleWhy = roleChangeRefusal(
                actor,
                target,
                m.role === "viewer" ? "editor" : "viewer",
                owners,
              );
              return (
                <tr key={m.userId}>
                  <td>{m.email}{m.userId === t.userId ? " (you)" : ""}</td>
                  <td>{m.role}</td>
                  <td>
                    <Time at={m.createdAt} />
                  </td>
                  {admin && (
                    <td>
                      {roleWhy && removeWhy
                        ? <span class="muted">{roleWhy}</span>
                        : (
                          <div class="actions">
                            {roleWhy ? <span class="muted">{roleWhy}</span> : (
                              <ApiForm
                                api={`${t.api}/members/update-role`}
                                submit="Change role"
                                busy={`Saving\u2026`}
                                done={`${m.email} is now {role}`}
                                layout="inline"
                                secondary
                                label={`Change role of ${m.email}`}
                              >
                                <Hidden name="userId" value={m.userId} />
                                <Select
                                  name="role"
                                  label={`Role for ${m.email}`}
                                  options={assignable}
                                  value={m.role}
                                />
                              </ApiForm>
                            )}
                            {removeWhy ? <span class="muted">{removeWhy}</span> : (
                              <ApiForm
                                api={`${t.api}/members/remove`}
                                submit="Remove"
                                busy={`Removing\u2026`}
                                confirm={`Remove ${m.email} from ${t.tenant.slug}?`}
                                done={`Removed ${m.email}`}
                                layout="inline"
                                danger
                                label={`Remove ${m.email}`}
                              >
                                <Hidden name="userId" value={m.userId} />
                              </ApiForm>
                            )}
                          </div>
                        )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </TableWrap>
      </section>
      {admin && <InvitesSection t={t} invites={invites} assignable={assignable} />}
    </>
  );
};
