/**
 * The runtime side of stored AI outputs: which stored decisions a profile's
 * rules have (loaded once per regenerate version, so a review action, which bumps that
 * version, reaches every instance with the snapshot), and a queue that records produced
 * outputs off the request path in one conditional upsert per batch. The upsert, not the
 * caller, decides what a human decision protects (docs/decisions.md "AI outputs").
 */
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Services } from "../services.ts";
import { aiOutputs, type AiOutputStatus, type AiPresetId } from "../db/schema/mod.ts";
import { WriteQueue } from "./write_queue.ts";

/** What the runtime needs of a stored output that a person acted on (or that waits for one). */
export type OutputDecision = {
  id: number;
  status: AiOutputStatus;
  pinned: boolean;
  sourceHash: string;
  output: string;
};

export const decisionKey = (ruleId: number, path: string, field: string) =>
  JSON.stringify([ruleId, path, field]);

/** Stored outputs per tenant: beyond this, new (rule, path, field) rows are not recorded. */
export const MAX_OUTPUTS_PER_TENANT = 50_000;
/** Decisions loaded per (tenant, profile); the newest first beyond it. */
const MAX_DECISIONS_LOADED = 20_000;
/** (tenant, profile) decision sets kept in memory; the oldest loaded goes first. */
const MAX_DECISION_SETS = 500;
const MAX_QUEUE = 10_000;
const MAX_SEEN = 50_000;

type Loaded = { stamp: string; decisions: Promise<Map<string, OutputDecision>> };

/** Decision sets by (tenant, profile), reloaded when the profile's version or rules change. */
export class DecisionCache {
  #sets = new Map<string, Loaded>();

  constructor(readonly s: Services) {}

  get(
    tenantId: number,
    profile: string,
    version: number,
    ruleIds: number[],
  ): Promise<Map<string, OutputDecision>> {
    const key = `${tenantId}\u0000${profile}`;
    const stamp = `${version}\u0000${ruleIds.join(",")}`;
    const cur = this.#sets.get(key);
    if (cur && cur.stamp === stamp) return cur.decisions;
    const decisions = this.#load(tenantId, ruleIds);
    this.#sets.delete(key);
    if (this.#sets.size >= MAX_DECISION_SETS) this.#sets.delete(this.#sets.keys().next().value!);
    this.#sets.set(key, { stamp, decisions });
    // A failed load is not kept: the next request tries again.
    decisions.catch(() => {
      if (this.#sets.get(key)?.decisions === decisions) this.#sets.delete(key);
    });
    return decisions;
  }

  async #load(tenantId: number, ruleIds: number[]): Promise<Map<string, OutputDecision>> {
    const rows = await this.s.db.select({
      id: aiOutputs.id,
      ruleId: aiOutputs.ruleId,
      path: aiOutputs.path,
      field: aiOutputs.field,
      status: aiOutputs.status,
      pinned: aiOutputs.pinned,
      sourceHash: aiOutputs.sourceHash,
      output: aiOutputs.output,
    }).from(aiOutputs).where(and(
      eq(aiOutputs.tenantId, tenantId),
      inArray(aiOutputs.ruleId, ruleIds),
      or(ne(aiOutputs.status, "auto"), eq(aiOutputs.pinned, true)),
    )).orderBy(sql`${aiOutputs.updatedAt} DESC`).limit(MAX_DECISIONS_LOADED);
    return new Map(rows.map((r) => [decisionKey(r.ruleId, r.path, r.field), r]));
  }
}

/** One produced output to record: `auto` (served) or `pending` (review mode, source served). */
export type OutputRecord = {
  tenantId: number;
  ruleId: number;
  ruleVersion: number;
  profile: string;
  path: string;
  field: string;
  source: string;
  sourceHash: string;
  output: string;
  status: "auto" | "pending";
  model: string;
  presetId: AiPresetId;
  presetVersion: number;
  promptHash: string;
  tokens: number;
  at: number;
};

/** A pinned output whose field now has another source: flagged for review, never replaced. */
export type SourceMoved = { tenantId: number; id: number; source: string; sourceHash: string };

type Op = { kind: "record"; r: OutputRecord } | { kind: "moved"; m: SourceMoved };

/** Queues output records and writes them in batches; `flush()` waits for everything queued. */
export class OutputRecorder {
  #queue = new WriteQueue<Op>(MAX_QUEUE, (batch) => this.#write(batch));
  /** What was queued already, so a repeat of the same answer costs no write. */
  #seen = new Set<string>();

  constructor(readonly s: Services) {}

  record(r: OutputRecord): void {
    this.#push(
      JSON.stringify([
        r.tenantId,
        r.ruleId,
        r.ruleVersion,
        r.path,
        r.field,
        r.sourceHash,
        r.model,
      ]) +
        r.status,
      { kind: "record", r },
    );
  }

  sourceMoved(m: SourceMoved): void {
    this.#push(`moved:${m.id}:${m.sourceHash}`, { kind: "moved", m });
  }

  #push(seenKey: string, op: Op): void {
    if (this.#seen.has(seenKey)) return;
    if (!this.#queue.push(op)) return;
    if (this.#seen.size >= MAX_SEEN) this.#seen.clear();
    this.#seen.add(seenKey);
  }

  flush(): Promise<void> {
    return this.#queue.flush();
  }

  async #write(batch: Op[]): Promise<void> {
    try {
      const records = new Map<string, OutputRecord>();
      for (const op of batch) {
        if (op.kind === "record") {
          // One row per conflict key in a statement (Postgres refuses to touch a row twice).
          records.set(JSON.stringify([op.r.tenantId, op.r.ruleId, op.r.path, op.r.field]), op.r);
        } else await markSourceMoved(this.s, op.m);
      }
      if (records.size) await upsertOutputs(this.s, [...records.values()]);
    } catch (e) {
      this.#seen.clear(); // what was lost may be recorded again
      this.s.log.warn("ai output record flush failed", {
        outputs: batch.length,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}

async function markSourceMoved(s: Services, m: SourceMoved): Promise<void> {
  await s.db.update(aiOutputs).set({
    status: "source_changed",
    source: m.source,
    sourceHash: m.sourceHash,
    version: sql`${aiOutputs.version} + 1`,
    updatedAt: new Date(s.clock.now()),
  }).where(and(
    eq(aiOutputs.tenantId, m.tenantId),
    eq(aiOutputs.id, m.id),
    eq(aiOutputs.pinned, true),
    ne(aiOutputs.sourceHash, m.sourceHash),
  ));
}

/**
 * One statement for the batch. A row a person decided on (approved, rejected, edited or
 * pinned) is left alone while its source is unchanged; a pinned row whose source changed
 * keeps its output and becomes source_changed; anything else takes the new output.
 * Tenants at MAX_OUTPUTS_PER_TENANT only update rows they have.
 */
async function upsertOutputs(s: Services, records: OutputRecord[]): Promise<void> {
  const tenants = [...new Set(records.map((r) => r.tenantId))];
  const counts = await s.db.select({ tenantId: aiOutputs.tenantId, n: sql<number>`count(*)` })
    .from(aiOutputs).where(inArray(aiOutputs.tenantId, tenants)).groupBy(aiOutputs.tenantId);
  const full = new Set(
    counts.filter((c) => Number(c.n) >= MAX_OUTPUTS_PER_TENANT).map((c) => c.tenantId),
  );
  const rows = records.map((r) => ({
    tenant_id: r.tenantId,
    rule_id: r.ruleId,
    rule_version: r.ruleVersion,
    profile: r.profile,
    path: r.path,
    field: r.field,
    source: r.source,
    source_hash: r.sourceHash,
    output: r.output,
    status: r.status,
    model: r.model,
    preset_id: r.presetId,
    preset_version: r.presetVersion,
    prompt_hash: r.promptHash,
    tokens: r.tokens,
    at: new Date(r.at).toISOString(),
    at_cap: full.has(r.tenantId),
  }));
  await s.db.execute(sql`
    INSERT INTO ai_outputs AS o (tenant_id, rule_id, rule_version, profile, path, field, source,
      source_hash, output, status, model, preset_id, preset_version, prompt_hash, tokens,
      created_at, updated_at)
    SELECT x.tenant_id, x.rule_id, x.rule_version, x.profile, x.path, x.field, x.source,
      x.source_hash, x.output, x.status, x.model, x.preset_id, x.preset_version, x.prompt_hash,
      x.tokens, x.at, x.at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(tenant_id integer,
      rule_id integer, rule_version integer, profile text, path text, field text, source text,
      source_hash text, output text, status text, model text, preset_id text,
      preset_version integer, prompt_hash text, tokens integer, at timestamptz, at_cap boolean)
    -- the rule may have been deleted since the run
    WHERE EXISTS (SELECT 1 FROM ai_rules r WHERE r.id = x.rule_id AND r.tenant_id = x.tenant_id)
      AND (NOT x.at_cap OR EXISTS (SELECT 1 FROM ai_outputs e WHERE e.tenant_id = x.tenant_id
        AND e.rule_id = x.rule_id AND e.path = x.path AND e.field = x.field))
    ON CONFLICT (tenant_id, rule_id, path, field) DO UPDATE SET
      status = CASE WHEN o.pinned THEN 'source_changed' ELSE excluded.status END,
      output = CASE WHEN o.pinned THEN o.output ELSE excluded.output END,
      model = CASE WHEN o.pinned THEN o.model ELSE excluded.model END,
      rule_version = CASE WHEN o.pinned THEN o.rule_version ELSE excluded.rule_version END,
      preset_id = CASE WHEN o.pinned THEN o.preset_id ELSE excluded.preset_id END,
      preset_version = CASE WHEN o.pinned THEN o.preset_version ELSE excluded.preset_version END,
      prompt_hash = CASE WHEN o.pinned THEN o.prompt_hash ELSE excluded.prompt_hash END,
      tokens = CASE WHEN o.pinned THEN o.tokens ELSE excluded.tokens END,
      created_at = CASE WHEN o.pinned THEN o.created_at ELSE excluded.created_at END,
      profile = excluded.profile,
      source = excluded.source,
      source_hash = excluded.source_hash,
      version = o.version + 1,
      updated_at = excluded.updated_at
    WHERE NOT (o.source_hash = excluded.source_hash
        AND (o.pinned OR o.status IN ('approved', 'rejected', 'edited', 'source_changed')))
      AND NOT (o.source_hash = excluded.source_hash AND o.status = excluded.status
        AND o.model = excluded.model AND o.prompt_hash = excluded.prompt_hash
        AND o.output = excluded.output)`);
}
