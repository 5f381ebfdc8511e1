/**
 * Stored AI outputs for people: the list with provenance, and review actions
 * (approve, reject, edit, pin, bulk approve). Every action is one conditional UPDATE
 * scoped by tenant (and by the version the reviewer saw, when given: 409 if it moved
 * on), audited, and bumps the rule's profile regenerate version in the same
 * transaction, so the edge's transformed-answer key changes and every instance reloads
 * the decisions with the snapshot (lib/ai/output_store.ts).
 */
import { and, count, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { AI_OUTPUT_STATUSES, aiOutputs, type AiOutputStatus, aiRules } from "../db/schema/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { conflict, notFound } from "../errors.ts";
import { changeRules } from "./rules.ts";
import type { OutputCounts, OutputsPage, OutputView } from "./view_schema.ts";

type Row = typeof aiOutputs.$inferSelect;

export function outputView(r: Row): OutputView {
  return {
    id: r.id,
    ruleId: r.ruleId,
    ruleVersion: r.ruleVersion,
    profile: r.profile,
    path: r.path,
    field: r.field,
    source: r.source,
    output: r.output,
    status: r.status,
    pinned: r.pinned,
    model: r.model,
    presetId: r.presetId,
    presetVersion: r.presetVersion,
    promptHash: r.promptHash,
    sourceHash: r.sourceHash,
    tokens: r.tokens,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export type OutputFilter = {
  limit: number;
  cursor?: number;
  ruleId?: number;
  status?: AiOutputStatus;
  path?: string;
  profile?: string;
};

/** Newest first; `nextCursor` continues below the last id returned. */
export async function listOutputs(
  s: Services,
  tenantId: number,
  f: OutputFilter,
): Promise<OutputsPage> {
  const conds: SQL[] = [eq(aiOutputs.tenantId, tenantId)];
  if (f.cursor !== undefined) conds.push(lt(aiOutputs.id, f.cursor));
  if (f.ruleId !== undefined) conds.push(eq(aiOutputs.ruleId, f.ruleId));
  if (f.status) conds.push(eq(aiOutputs.status, f.status));
  if (f.path !== undefined) conds.push(eq(aiOutputs.path, f.path));
  if (f.profile !== undefined) conds.push(eq(aiOutputs.profile, f.profile));
  const rows = await s.db.select().from(aiOutputs).where(and(...conds))
    .orderBy(desc(aiOutputs.id)).limit(f.limit + 1);
  const page = rows.slice(0, f.limit);
  return {
    outputs: page.map(outputView),
    nextCursor: rows.length > f.limit ? String(page.at(-1)!.id) : null,
  };
}

const zeroCounts = () =>
  Object.fromEntries(AI_OUTPUT_STATUSES.map((st) => [st, 0])) as Record<AiOutputStatus, number>;

/** Outputs per status, overall and per rule (the review queue's header). */
export async function outputCounts(s: Services, tenantId: number): Promise<OutputCounts> {
  const rows = await s.db.select({ ruleId: aiOutputs.ruleId, status: aiOutputs.status, n: count() })
    .from(aiOutputs).where(eq(aiOutputs.tenantId, tenantId))
    .groupBy(aiOutputs.ruleId, aiOutputs.status);
  const counts = zeroCounts();
  const byRule = new Map<number, Record<AiOutputStatus, number>>();
  for (const r of rows) {
    counts[r.status] += Number(r.n);
    const c = byRule.get(r.ruleId) ?? zeroCounts();
    c[r.status] += Number(r.n);
    byRule.set(r.ruleId, c);
  }
  return {
    counts,
    byRule: [...byRule].sort((a, b) => a[0] - b[0]).map(([ruleId, c]) => ({ ruleId, counts: c })),
  };
}

export type OutputAction = "approve" | "reject" | "pin" | "edit";

const SETS: Record<OutputAction, (text?: string) => Partial<typeof aiOutputs.$inferInsert>> = {
  // An approved pinned output stays pinned; approving clears "source changed".
  approve: () => ({ status: "approved" }),
  // The source is served, so the output must not stay pinned over it.
  reject: () => ({ status: "rejected", pinned: false }),
  // A pinned output is served: an unapproved one becomes approved.
  pin: () => ({
    pinned: true,
    status: sql<AiOutputStatus>`CASE WHEN ${aiOutputs.status} IN ('pending', 'rejected')
      THEN 'approved' ELSE ${aiOutputs.status} END` as unknown as AiOutputStatus,
  }),
  edit: (text) => ({ output: text, status: "edited", pinned: true }),
};

const DONE: Record<OutputAction, string> = {
  approve: "approved",
  reject: "rejected",
  pin: "pinned",
  edit: "edited",
};

/**
 * One review action on one output of this tenant. `version`, when given, must be the
 * output's current version (409 otherwise); another tenant's output is a 404.
 */
export async function actOnOutput(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  id: number,
  action: OutputAction,
  input: { version?: number; output?: string },
): Promise<OutputView> {
  return await changeRules(s, tenant, async (tx, bump) => {
    const conds = [eq(aiOutputs.tenantId, tenant.id), eq(aiOutputs.id, id)];
    if (input.version !== undefined) conds.push(eq(aiOutputs.version, input.version));
    const [row] = await tx.db.update(aiOutputs).set({
      ...SETS[action](input.output),
      version: sql`${aiOutputs.version} + 1`,
      updatedAt: new Date(s.clock.now()),
    }).where(and(...conds)).returning();
    if (!row) {
      const [exists] = await tx.db.select({ version: aiOutputs.version }).from(aiOutputs)
        .where(and(eq(aiOutputs.tenantId, tenant.id), eq(aiOutputs.id, id)));
      if (!exists) throw notFound("Output");
      throw conflict(`Output changed since version ${input.version} (now ${exists.version})`);
    }
    await recordAudit(tx, {
      tenantId: tenant.id,
      actorUserId,
      action: `ai_transform.output_${DONE[action]}`,
      target: `output:${row.id}`,
      metadata: {
        ruleId: row.ruleId,
        path: row.path,
        field: row.field,
        version: row.version,
        ...(action === "edit" ? { chars: row.output.length } : {}),
      },
    });
    await bumpRuleProfiles(tx, tenant.id, [row], bump);
    return outputView(row);
  });
}

/** Approves each listed output still at the listed version; the rest are reported skipped. */
export async function bulkApprove(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  items: { id: number; version: number }[],
): Promise<{ approved: number[]; skipped: number[] }> {
  return await changeRules(s, tenant, async (tx, bump) => {
    const list = await tx.db.update(aiOutputs).set({
      status: "approved",
      version: sql`${aiOutputs.version} + 1`,
      updatedAt: new Date(s.clock.now()),
    }).where(and(
      eq(aiOutputs.tenantId, tenant.id),
      or(...items.map((i) => and(eq(aiOutputs.id, i.id), eq(aiOutputs.version, i.version)))),
    )).returning({ id: aiOutputs.id, ruleId: aiOutputs.ruleId });
    const approved = list.map((r) => r.id).sort((a, b) => a - b);
    const done = new Set(approved);
    if (approved.length) {
      await recordAudit(tx, {
        tenantId: tenant.id,
        actorUserId,
        action: "ai_transform.outputs_approved",
        target: `outputs:${approved.length}`,
        metadata: { ids: approved },
      });
      await bumpRuleProfiles(tx, tenant.id, list, bump);
    }
    return { approved, skipped: items.map((i) => i.id).filter((i) => !done.has(i)) };
  });
}

/** Bumps the current profile of each rule the outputs belong to. */
async function bumpRuleProfiles(
  tx: Services,
  tenantId: number,
  rows: { ruleId: number }[],
  bump: (profile: string) => Promise<void>,
): Promise<void> {
  const ids = [...new Set(rows.map((r) => r.ruleId))];
  const rules = await tx.db.selectDistinct({ profile: aiRules.profile }).from(aiRules)
    .where(and(eq(aiRules.tenantId, tenantId), inArray(aiRules.id, ids)));
  for (const r of rules) await bump(r.profile);
}
