/**
 * Who may change whose membership (SPEC "Webhooks, members and invites"). Pure
 * functions: each returns the reason a change is refused (a 403 message), or null.
 * The caller's role is the one `requireTenant` resolved (master admins act as owner).
 */
import { type Role, roleRank } from "../base/roles.ts";

/** `isAdmin`: a master admin, who acts as owner without being a member. */
export type Actor = { userId: string; role: Role; isAdmin?: boolean };
export type Target = { userId: string; role: Role };

/** Owners may act on anyone; others only on members strictly below their own role. */
function outranks(actor: Actor, target: Target): boolean {
  return actor.role === "owner" || roleRank(actor.role) > roleRank(target.role);
}

/** Inviting: admins cannot hand out owner, and nobody hands out a role above their own. */
export function inviteRefusal(actor: Actor, role: Role): string | null {
  if (role === "owner" && actor.role !== "owner") return "Only an owner can assign the owner role";
  if (roleRank(role) > roleRank(actor.role)) return "Cannot assign a role above your own";
  return null;
}

/** Removal: never yourself, never the last owner, never an equal or higher member unless owner. */
export function removeRefusal(actor: Actor, target: Target, owners: number): string | null {
  if (actor.userId === target.userId) return "Cannot remove yourself";
  if (target.role === "owner" && owners <= 1) return "Cannot remove the last owner";
  if (!outranks(actor, target)) return "Cannot remove a member with an equal or higher role";
  return null;
}

/** Role change: never your own, owner only by owners, never an equal or higher member unless owner. */
export function roleChangeRefusal(
  actor: Actor,
  target: Target,
  role: Role,
  owners: number,
): string | null {
  if (actor.userId === target.userId) return "Cannot change your own role";
  if (role === "owner" && actor.role !== "owner") return "Only an owner can assign the owner role";
  if (!outranks(actor, target)) {
    return "Cannot change the role of a member with an equal or higher role";
  }
  if (roleRank(role) > roleRank(actor.role)) return "Cannot assign a role above your own";
  if (target.role === "owner" && role !== "owner" && owners <= 1) {
    return "Cannot demote the last owner";
  }
  return null;
}
