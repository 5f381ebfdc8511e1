/** Test fixture: members of a tenant with a given role, made through the real invite flow. */
import type { App } from "../lib/bootstrap.ts";
import type { Role } from "../lib/base/roles.ts";
import { type Client, signUp } from "./harness.ts";

export type Member = Client & { email: string; userId: string };

/** Signs up a new user, has `owner` invite them with `role`, and accepts the invite. */
export async function memberWithRole(
  app: App,
  owner: Client,
  slug: string,
  role: Role,
): Promise<Member> {
  const user = await signUp(app);
  const inv = await owner.post(`/api/tenants/${slug}/members/invite`, { email: user.email, role });
  if (inv.status !== 200) throw new Error(`invite failed: ${inv.status} ${inv.text}`);
  const acc = await user.post("/api/invites/accept", { token: inv.body.token });
  if (acc.status !== 200) throw new Error(`accept failed: ${acc.status} ${acc.text}`);
  return user;
}

/** A tenant with one member per role, plus an outsider who belongs to another tenant. */
export async function roleMatrix(app: App, owner: Client, slug: string) {
  return {
    owner,
    admin: await memberWithRole(app, owner, slug, "admin"),
    editor: await memberWithRole(app, owner, slug, "editor"),
    viewer: await memberWithRole(app, owner, slug, "viewer"),
    outsider: await signUp(app),
  };
}
