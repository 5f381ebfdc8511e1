/**
 * AI transform rules: create, update, delete and status changes. Every query is
 * scoped by tenant id; every change is audited and re-syncs the tenant's edge
 * snapshot in the same request, since active rules travel with it.
 */
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Services } from "../services.ts";
import type { Tenant } from "../tenants/service.ts";
import { aiRules, type AiRuleStatus } from "../db/schema/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { changeTenant } from "../edge_config/changes.ts";
import { ApiError, notFound } from "../errors.ts";
import { zodToApiError } from "../http/validate.ts";
import {
  checkPresetFields,
  type CreateRuleInput,
  DEFAULT_PROFILE,
  type UpdateRuleInput,
} from "./rule_schema.ts";
import type { AiRuleSnapshot } from "./snapshot_types.ts";
import { bumpRegenVersion } from "./regen.ts";
import { purgeAfterBump } from "../cdn/purge.ts";
import type { RuleView } from "./view_schema.ts";

/**
 * Runs `change` in changeTenant with a bump function that records the profiles whose
 * regen version it bumped, then, after commit and projection, purges their CDN copies
 * (a live rule's output changed, so transformed responses a CDN keeps are stale).
 */
export async function changeRules<T>(
  s: Services,
  tenant: Tenant,
  change: (tx: Services, bump: (profile: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const bumped = new Set<string>();
  const out = await changeTenant(s, tenant.id, (tx) =>
    change(tx, async (profile) => {
      await bumpRegenVersion(tx, tenant.id, profile);
      bumped.add(profile);
    }));
  if (bumped.size) {
    await purgeAfterBump(s, tenant.id, { profiles: [...bumped] }, tenant.settings);
  }
  return out;
}

export type AiRule = typeof aiRules.$inferSelect;

/** The API view of a rule. */
export function ruleView(r: AiRule): RuleView {
  return {
    id: r.id,
    presetId: r.presetId,
    fieldSelector: r.fieldSelector,
    routePattern: r.routePattern,
    profile: r.profile,
    tone: r.tone,
    targetLanguage: r.targetLanguage,
    customInstruction: r.customInstruction,
    constraints: r.constraints,
    example: exampleOf(r),
    status: r.status,
    version: r.version,
    reviewMode: r.reviewMode,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function ruleToSnapshot(r: AiRule): AiRuleSnapshot {
  return {
    id: r.id,
    version: r.version,
    presetId: r.presetId,
    fieldSelector: r.fieldSelector,
    routePattern: r.routePattern,
    profile: r.profile,
    tone: r.tone,
    targetLanguage: r.targetLanguage,
    customInstruction: r.customInstruction,
    constraints: r.constraints,
    example: exampleOf(r),
    reviewMode: r.reviewMode,
  };
}

function exampleOf(r: AiRule): { input: string; output: string } | null {
  return r.exampleInput !== null && r.exampleOutput !== null
    ? { input: r.exampleInput, output: r.exampleOutput }
    : null;
}

export async function listRules(s: Services, tenantId: number): Promise<AiRule[]> {
  return await s.db.select().from(aiRules).where(eq(aiRules.tenantId, tenantId))
    .orderBy(asc(aiRules.id));
}

/** A rule of this tenant, or 404 (a rule id of another tenant is indistinguishable from none). */
export async function getRule(s: Services, tenantId: number, id: number): Promise<AiRule> {
  const [row] = await s.db.select().from(aiRules)
    .where(and(eq(aiRules.tenantId, tenantId), eq(aiRules.id, id)));
  if (!row) throw notFound("Rule");
  return row;
}

export async function createRule(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  input: CreateRuleInput,
): Promise<AiRule> {
  return await changeTenant(s, tenant.id, async (tx) => {
    const [row] = await tx.db.insert(aiRules).values({
      tenantId: tenant.id,
      presetId: input.presetId,
      fieldSelector: input.fieldSelector,
      routePattern: input.routePattern ?? null,
      profile: input.profile ?? DEFAULT_PROFILE,
      ...presetColumns(input.presetId, input),
      reviewMode: input.reviewMode ?? "auto",
      status: "draft",
      createdBy: actorUserId,
    }).returning();
    await audit(tx, tenant, actorUserId, "ai_transform.rule_created", row);
    return row;
  });
}

/** Keeps only the columns that belong to the preset; others are cleared. */
function presetColumns(
  presetId: AiRule["presetId"],
  v: {
    tone?: string | null;
    targetLanguage?: string | null;
    customInstruction?: string | null;
    constraints?: string | null;
    example?: { input: string; output: string } | null;
  },
) {
  return {
    tone: presetId === "rewrite_tone" ? v.tone ?? null : null,
    targetLanguage: presetId === "translate" ? v.targetLanguage ?? null : null,
    customInstruction: presetId === "custom" ? v.customInstruction ?? null : null,
    constraints: presetId === "custom" ? v.constraints ?? null : null,
    exampleInput: presetId === "custom" ? v.example?.input ?? null : null,
    exampleOutput: presetId === "custom" ? v.example?.output ?? null : null,
  };
}

export async function updateRule(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  id: number,
  input: UpdateRuleInput,
): Promise<AiRule> {
  return await changeRules(s, tenant, async (tx, bump) => {
    const cur = await getRule(tx, tenant.id, id);
    const presetId = input.presetId ?? cur.presetId;
    const merged = {
      tone: pick(input.tone, cur.tone),
      targetLanguage: pick(input.targetLanguage, cur.targetLanguage),
      customInstruction: pick(input.customInstruction, cur.customInstruction),
      constraints: pick(input.constraints, cur.constraints),
      example: input.example !== undefined ? input.example : exampleOf(cur),
    };
    // Preset requirements apply to the rule after the change, not just to the body.
    const check = z.unknown().superRefine((_, ctx) =>
      checkPresetFields({ presetId, ...merged }, ctx, input)
    ).safeParse(null);
    if (!check.success) throw zodToApiError(check.error);
    const [row] = await tx.db.update(aiRules).set({
      presetId,
      fieldSelector: input.fieldSelector ?? cur.fieldSelector,
      routePattern: input.routePattern !== undefined ? input.routePattern : cur.routePattern,
      profile: input.profile ?? cur.profile,
      ...presetColumns(presetId, merged),
      reviewMode: input.reviewMode ?? cur.reviewMode,
      version: cur.version + 1,
      updatedAt: new Date(s.clock.now()),
    }).where(and(eq(aiRules.tenantId, tenant.id), eq(aiRules.id, id))).returning();
    await audit(tx, tenant, actorUserId, "ai_transform.rule_updated", row, {
      fields: Object.keys(input),
    });
    if (cur.status === "active") {
      // Live output changes: new cache keys for the old and new profile (docs/decisions.md).
      await bump(cur.profile);
      if (row.profile !== cur.profile) await bump(row.profile);
    }
    return row;
  });
}

function pick<T>(next: T | undefined, cur: T): T {
  return next !== undefined ? next : cur;
}

export async function deleteRule(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  id: number,
): Promise<void> {
  return await changeRules(s, tenant, async (tx, bump) => {
    const cur = await getRule(tx, tenant.id, id);
    await tx.db.delete(aiRules).where(and(eq(aiRules.tenantId, tenant.id), eq(aiRules.id, id)));
    await audit(tx, tenant, actorUserId, "ai_transform.rule_deleted", cur);
    if (cur.status === "active") await bump(cur.profile);
  });
}

export type StatusAction = "activate" | "pause" | "resume";

/**
 * Status transitions. activate toggles draft <-> active (SPEC) and also brings a paused
 * rule back live; pause stops a draft or active rule everywhere (preview and runtime);
 * resume returns a paused rule to active (docs/decisions.md).
 */
export function nextStatus(cur: AiRuleStatus, action: StatusAction): AiRuleStatus {
  if (action === "activate") return cur === "active" ? "draft" : "active";
  if (action === "pause") return "paused";
  if (cur !== "paused") throw new ApiError(409, "conflict", "Rule is not paused");
  return "active";
}

export async function changeStatus(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  id: number,
  action: StatusAction,
): Promise<AiRule> {
  return await changeRules(s, tenant, async (tx, bump) => {
    const cur = await getRule(tx, tenant.id, id);
    const status = nextStatus(cur.status, action);
    if (status === cur.status) return cur;
    const [row] = await tx.db.update(aiRules)
      .set({ status, updatedAt: new Date(s.clock.now()) })
      .where(and(eq(aiRules.tenantId, tenant.id), eq(aiRules.id, id))).returning();
    await audit(tx, tenant, actorUserId, `ai_transform.rule_${action}d`, row, {
      from: cur.status,
      to: status,
    });
    if (cur.status === "active" || status === "active") {
      await bump(row.profile);
    }
    return row;
  });
}

async function audit(
  s: Services,
  tenant: Tenant,
  actorUserId: string,
  action: string,
  r: AiRule,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(s, {
    tenantId: tenant.id,
    actorUserId,
    action,
    target: `ai_rule:${r.id}`,
    metadata: { presetId: r.presetId, profile: r.profile, status: r.status, ...extra },
  });
}
