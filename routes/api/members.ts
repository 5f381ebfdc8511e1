/**
 * Members and invites (SPEC "Webhooks, members and invites"), plus accepting an
 * invite (`POST /api/invites/accept`, docs/decisions.md). Paths are relative to /api.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { atLeast, ROLES } from "../../lib/base/roles.ts";
import { listMembers, removeMember, updateMemberRole } from "../../lib/members/service.ts";
import {
  acceptInvite,
  createOrRefreshInvite,
  listPendingInvites,
  revokeInvite,
} from "../../lib/members/invites.ts";
import {
  createdInviteSchema,
  inviteViewSchema,
  memberViewSchema,
} from "../../lib/members/view_schema.ts";
import { isoTime } from "../../lib/base/shapes.ts";

const userId = str().trim().min(1).max(100);
const inviteSchema = z.object({ email: z.email().max(254), role: z.enum(ROLES) }).strict();
const removeSchema = z.object({ userId }).strict();
const revokeSchema = z.object({ inviteId: z.number().int().positive() }).strict();
const roleSchema = z.object({ userId, role: z.enum(ROLES) }).strict();
const acceptSchema = z.object({ token: str().trim().min(1).max(200) }).strict();

export function membersRoutes(): Routes {
  const app = new Routes("");

  app.get("/tenants/:slug/members", {
    access: access.tenant("viewer"),
    summary: "Lists the tenant's members, and its pending invites for admins and owners",
    response: z.strictObject({
      members: z.array(memberViewSchema),
      invites: z.array(inviteViewSchema).describe("Empty unless the caller is admin or owner"),
    }),
  }, async (c, { tenant, role }) => {
    const s = c.get("services");
    return c.json({
      members: await listMembers(s, tenant.id),
      // SPEC: invites stay empty unless the caller is admin or owner.
      invites: atLeast(role, "admin") ? await listPendingInvites(s, tenant.id) : [],
    });
  });

  app.post("/tenants/:slug/members/invite", {
    access: access.tenant("admin"),
    summary: "Invites an e-mail address with a role (refreshes a pending invite to it)",
    body: inviteSchema,
    response: createdInviteSchema,
  }, async (c, { tenant, role, auth, body }) => {
    const actor = { userId: auth.user.id, role };
    return c.json(await createOrRefreshInvite(c.get("services"), tenant, actor, body));
  });

  app.post("/tenants/:slug/members/remove", {
    access: access.tenant("admin"),
    summary: "Removes a member from the tenant",
    body: removeSchema,
    response: z.strictObject({ ok: z.literal(true), userId: str() }),
  }, async (c, { tenant, role, auth, body }) => {
    const actor = { userId: auth.user.id, role, isAdmin: auth.isAdmin };
    await removeMember(c.get("services"), tenant, actor, body.userId);
    return c.json({ ok: true, userId: body.userId });
  });

  app.post("/tenants/:slug/members/revoke-invite", {
    access: access.tenant("admin"),
    summary: "Revokes a pending invite",
    body: revokeSchema,
    response: z.strictObject({ ok: z.literal(true), inviteId: z.number().int() }),
  }, async (c, { tenant, auth, body }) => {
    await revokeInvite(c.get("services"), tenant, auth.user.id, body.inviteId);
    return c.json({ ok: true, inviteId: body.inviteId });
  });

  app.post("/tenants/:slug/members/update-role", {
    access: access.tenant("admin"),
    summary: "Changes a member's role",
    body: roleSchema,
    response: z.strictObject({ userId: str(), role: z.enum(ROLES), updatedAt: isoTime }),
  }, async (c, { tenant, role, auth, body }) => {
    const actor = { userId: auth.user.id, role, isAdmin: auth.isAdmin };
    return c.json(
      await updateMemberRole(c.get("services"), tenant, actor, body.userId, body.role),
    );
  });

  app.post("/invites/accept", {
    access: access.session,
    summary: "Accepts an invite addressed to the caller's e-mail and joins its tenant",
    body: acceptSchema,
    response: z.strictObject({
      ok: z.literal(true),
      tenant: str().describe("The tenant's slug"),
      role: z.enum(ROLES),
    }),
    errors: [403, 404, 410],
  }, async (c, { auth, body }) => {
    const joined = await acceptInvite(c.get("services"), auth.user, body.token);
    return c.json({ ok: true, ...joined });
  });

  return app;
}
