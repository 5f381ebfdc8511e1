/** The member-change rules as tables: who may remove, re-role or invite whom. */
import { assertEquals } from "../../tests/assert.ts";
import { inviteRefusal, removeRefusal, roleChangeRefusal } from "./rules.ts";
import { type Role, ROLES } from "../base/roles.ts";

const actor = (role: Role) => ({ userId: "actor", role });
const target = (role: Role) => ({ userId: "target", role });

Deno.test("removeRefusal() lets owners remove anyone else and others only those below them", () => {
  const allowed: string[] = [];
  for (const a of ROLES) {
    for (const t of ROLES) {
      if (removeRefusal(actor(a), target(t), 2) === null) allowed.push(`${a}>${t}`);
    }
  }
  assertEquals(allowed, [
    "editor>viewer",
    "admin>viewer",
    "admin>editor",
    "owner>viewer",
    "owner>editor",
    "owner>admin",
    "owner>owner",
  ]);
});

Deno.test("removeRefusal() refuses self-removal and the last owner", () => {
  assertEquals(
    removeRefusal(actor("owner"), { userId: "actor", role: "owner" }, 2),
    "Cannot remove yourself",
  );
  assertEquals(removeRefusal(actor("owner"), target("owner"), 1), "Cannot remove the last owner");
});

Deno.test("roleChangeRefusal() guards own role, owner assignment, rank and the last owner", () => {
  assertEquals(
    roleChangeRefusal(actor("admin"), { userId: "actor", role: "admin" }, "viewer", 1),
    "Cannot change your own role",
  );
  assertEquals(
    roleChangeRefusal(actor("admin"), target("viewer"), "owner", 1),
    "Only an owner can assign the owner role",
  );
  assertEquals(
    roleChangeRefusal(actor("admin"), target("admin"), "viewer", 1),
    "Cannot change the role of a member with an equal or higher role",
  );
  assertEquals(
    roleChangeRefusal(actor("editor"), target("viewer"), "admin", 1),
    "Cannot assign a role above your own",
  );
  assertEquals(
    roleChangeRefusal(actor("owner"), target("owner"), "admin", 1),
    "Cannot demote the last owner",
  );
  assertEquals(roleChangeRefusal(actor("owner"), target("owner"), "admin", 2), null);
  assertEquals(roleChangeRefusal(actor("admin"), target("viewer"), "admin", 1), null);
});

Deno.test("inviteRefusal() keeps owner for owners and never goes above the inviter", () => {
  const allowed = ROLES.flatMap((a) =>
    ROLES.filter((r) => inviteRefusal(actor(a), r) === null).map((r) => `${a}:${r}`)
  );
  assertEquals(allowed, [
    "viewer:viewer",
    "editor:viewer",
    "editor:editor",
    "admin:viewer",
    "admin:editor",
    "admin:admin",
    "owner:viewer",
    "owner:editor",
    "owner:admin",
    "owner:owner",
  ]);
});
