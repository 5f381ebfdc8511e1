// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/** Shared set-up for the experiments tests: tenants with roles, active AI rules, experiments. */
import type { TestApp } from "./harness.ts";
import { Client, createTenant, signUp } from "./harness.ts";
import { aiRules, tenants } from "../lib/db/schema/mod.ts";
import { eq } from "drizzle-orm";

export type Team = {
  slug: string;
  tenantId: number;
  owner: Client;
  editor: Client;
  viewer: Client;
  outsider: Client;
};

/** A tenant with an owner, an editor, a viewer, and a signed-up user who is no member. */
export async function team(app: TestApp): Promise<Team> {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const [t] = await app.services.db.select({ id: tenants.id }).from(tenants)
    .where(eq(tenants.slug, slug));
  const member = async (role: string) => {
    const c = await signUp(app);
    await app.services.dbHandle.exec(
      `INSERT INTO tenant_members (tenant_id, user_id, role) VALUES (${t.id}, '${c.userId}', '${role}')`,
    );
    return c;
  };
  return {
    slug,
    tenantId: t.id,
    owner,
    editor: await member("editor"),
    viewer: await member("viewer"),
    outsider: await signUp(app),
  };
}

/** Inserts an AI rule for a profile straight into ai_rules (the AI area owns its API). */
export async function addRule(
  app: TestApp,
  tenantId: number,
  profile: string,
  status: "active" | "draft" = "active",
): Promise<void> {
  await app.services.db.insert(aiRules).values({
    tenantId,
    presetId: "shorten",
    fieldSelector: "title",
    profile,
    status,
  } as any);
}

/** Creates an experiment through the API and returns its body. */
export async function createExperiment(c: Client, slug: string, body: Record<string, unknown>) {
  const r = await c.post(`/api/tenants/${slug}/ai-experiments`, body);
  if (r.status !== 201) throw new Error(`create experiment failed: ${r.status} ${r.text}`);
  return r.body;
}

/** An active two-arm experiment (control + `casual`) on `route`; the rule is added too. */
export async function activeExperiment(
  app: TestApp,
  t: Team,
  route = "/posts",
  variants: Array<Record<string, unknown>> = [
    { key: "control" },
    { key: "casual", config: { transformProfile: "casual" } },
  ],
) {
  await addRule(app, t.tenantId, "casual");
  const e = await createExperiment(t.owner, t.slug, {
    name: "Tone",
    routePattern: route,
    variants,
  });
  const r = await t.owner.patch(`/api/tenants/${t.slug}/ai-experiments/${e.id}`, {
    status: "active",
  });
  if (r.status !== 200) throw new Error(`activate failed: ${r.status} ${r.text}`);
  return r.body;
}
