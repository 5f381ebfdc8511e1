/**
 * Experiments that stop themselves: a loop every instance runs reads the per-variant
 * visitor counts of each active experiment with guardrails (arm_health.ts) and, on a
 * breach against control (guardrails.ts), stops it. The stop is one conditional UPDATE (status = 'active' -> 'stopped') under the
 * tenant row lock, so when two instances see the same breach exactly one stops it and
 * only that one audits, re-projects the snapshot (every visitor then gets control: a
 * stopped experiment is not in it) and tells the owners.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import type { Db } from "../db/client.ts";
import { experiments, tenantMembers, users } from "../db/schema/mod.ts";
import { recordAudit } from "../audit/mod.ts";
import { markTenantChanged, projectTenant } from "../edge_config/changes.ts";
import { sendMail } from "../mail/mod.ts";
import { DEFAULT_GOAL } from "./schema.ts";
import { variantsOf } from "./queries.ts";
import { armVisitors } from "./arm_health.ts";
import { type Breach, findBreach } from "./guardrails.ts";

/** Experiments checked per pass (the oldest first; a bound on one pass's work). */
const MAX_PER_PASS = 500;

/** One pass over every active guarded experiment; returns the ids this instance stopped. */
export async function checkGuardrails(s: Services): Promise<number[]> {
  const rows = await s.db.select().from(experiments).where(and(
    eq(experiments.status, "active"),
    isNotNull(experiments.guardrails),
  )).orderBy(experiments.id).limit(MAX_PER_PASS);
  const stopped: number[] = [];
  for (const e of rows) {
    const g = e.guardrails!;
    const variants = (await variantsOf(s.db, e.tenantId, [e.id])).get(e.id) ?? [];
    const arms = await armVisitors(s, e, variants, g.goal ?? DEFAULT_GOAL);
    const breach = findBreach(g, arms);
    if (breach && await stopForBreach(s, e.tenantId, e.id, breach)) stopped.push(e.id);
  }
  return stopped;
}

/** Stops the experiment if it is still active; false when another instance was first. */
export async function stopForBreach(
  s: Services,
  tenantId: number,
  id: number,
  breach: Breach,
): Promise<boolean> {
  const now = new Date(s.clock.now());
  const done = await s.db.transaction(async (txAny) => {
    const tx = txAny as unknown as Db;
    // Tenant row first (markTenantChanged's order), then the experiment: the order every
    // experiment writer takes.
    const slug = await markTenantChanged(tx, tenantId);
    const [row] = await tx.update(experiments).set({
      status: "stopped",
      stopReason: breach.reason,
      stoppedAt: now,
      updatedAt: now,
    }).where(and(
      eq(experiments.tenantId, tenantId),
      eq(experiments.id, id),
      eq(experiments.status, "active"),
    )).returning();
    if (!row) {
      // Someone else stopped (or changed) it: undo the generation bump with the rest.
      throw new NotStopped();
    }
    await recordAudit(tx, {
      tenantId,
      actorUserId: null,
      action: "experiment.stopped",
      target: String(id),
      metadata: {
        reason: breach.reason,
        metric: breach.metric,
        variantKey: breach.variantKey,
        observed: breach.observed,
        control: breach.control,
        bound: breach.bound,
        margin: breach.margin,
        threshold: breach.threshold,
      },
    });
    return { row, slug };
  }).catch((e) => {
    if (e instanceof NotStopped) return null;
    throw e;
  });
  if (!done) return false;
  s.log.warn("experiment stopped by a guardrail", {
    tenantId,
    experimentId: id,
    metric: breach.metric,
  });
  if (done.slug) {
    await projectTenant(s, done.slug);
    await tellOwners(s, tenantId, done.slug, done.row.name, breach);
  }
  return true;
}

class NotStopped extends Error {}

/** Mails every owner of the tenant (when mail is configured); the dashboard shows a banner. */
async function tellOwners(
  s: Services,
  tenantId: number,
  slug: string,
  name: string,
  breach: Breach,
): Promise<void> {
  if (!s.config.mailTransportUrl) return;
  const owners = await s.db.select({ email: users.email }).from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.role, "owner")));
  const url = new URL(`/dashboard/${encodeURIComponent(slug)}/experiments`, s.config.publicUrl)
    .href;
  for (const o of owners) {
    await sendMail(s, {
      to: o.email,
      subject: `Cachely: experiment "${name}" stopped itself (${slug})`,
      text: `A guardrail stopped the experiment "${name}" on ${slug}: ${breach.reason}.\n\n` +
        `All its traffic now gets control. Review it and restart or archive it:\n${url}\n`,
    });
  }
}

/** Runs checkGuardrails every `intervalMs` (0: never); one pass at a time per instance. */
export function startGuardrailLoop(s: Services, intervalMs: number): { stop(): Promise<void> } {
  if (intervalMs <= 0) return { stop: () => Promise.resolve() };
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = checkGuardrails(s).catch((e) =>
      s.log.warn("guardrail check failed", { error: e instanceof Error ? e.message : String(e) })
    ).finally(() => running = null);
  };
  const timer = setInterval(run, intervalMs);
  Deno.unrefTimer(timer);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
