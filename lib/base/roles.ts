/** Tenant roles, ascending privilege (SPEC "Member and invite"). */
import type { Role } from "../db/schema/mod.ts";
export type { Role };

export const ROLES = ["viewer", "editor", "admin", "owner"] as const satisfies readonly Role[];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function atLeast(role: Role, min: Role): boolean {
  return roleRank(role) >= roleRank(min);
}
