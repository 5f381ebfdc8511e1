/**
 * Transform run log (SPEC "Transform run"). Runs are queued in memory and written
 * in batches off the request path, so logging never delays a visitor; the same
 * flush adds the run's tokens to the daily usage rows.
 */
import { and, count, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Services } from "../services.ts";
import { type AiFieldError, type AiRuleSummary, aiRuns } from "../db/schema/mod.ts";
import { upsertDailyUsage, utcDay } from "./usage.ts";
import type { RunsPage, RunView } from "./view_schema.ts";
import { WriteQueue } from "./write_queue.ts";

export const RUN_MODES = ["preview", "runtime"] as const;
export type RunMode = typeof RUN_MODES[number];
/** SPEC "Transform run outcome". */
export const RUN_STATUSES = ["applied", "partial", "passthrough", "error"] as const;
export type RunStatus = typeof RUN_STATUSES[number];

export type RunRecord = {
  tenantId: number;
  at: number;
  mode: RunMode;
  profile: string | null;
  apiPath: string | null;
  status: RunStatus;
  reason: string | null;
  model: string | null;
  rulesEvaluated: number;
  fieldsAttempted: number;
  fieldsTransformed: number;
  fieldsFailed: number;
  fieldsCached: number;
  modelCalls: number;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  fieldErrors: AiFieldError[];
  ruleSummary: AiRuleSummary[];
};

const MAX_QUEUE = 10_000;
/** Runs older than this are deleted (at most once an hour, after a flush). */
export const AI_RUN_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;

/** Queues runs and flushes them in the background; `flush()` waits for everything queued so far. */
export class RunLogger {
  #queue = new WriteQueue<RunRecord>(MAX_QUEUE, (batch) => this.#write(batch));
  #lastPrune = -Infinity;

  constructor(readonly s: Services) {}

  get dropped(): number {
    return this.#queue.dropped;
  }

  enqueue(run: RunRecord): void {
    this.#queue.push(run);
  }

  flush(): Promise<void> {
    return this.#queue.flush();
  }

  async #prune(): Promise<void> {
    const now = this.s.clock.now();
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    const cutoff = new Date(now - AI_RUN_RETENTION_DAYS * 86_400_000);
    await this.s.db.delete(aiRuns).where(lt(aiRuns.createdAt, cutoff));
  }

  async #write(batch: RunRecord[]): Promise<void> {
    try {
      // RunRecord's fields are the table's columns, except the time and a rounded latency.
      await this.s.db.insert(aiRuns).values(batch.map(({ at, latencyMs, ...columns }) => ({
        ...columns,
        createdAt: new Date(at),
        latencyMs: Math.round(latencyMs),
      })));
      const byDay = new Map<string, Parameters<typeof upsertDailyUsage>[1][number]>();
      for (const r of batch) {
        if (r.modelCalls === 0) continue;
        const day = utcDay(r.at);
        const k = `${r.tenantId}|${day}`;
        const row = byDay.get(k) ??
          { tenantId: r.tenantId, day, inputTokens: 0, outputTokens: 0, modelCalls: 0 };
        row.inputTokens += r.inputTokens;
        row.outputTokens += r.outputTokens;
        row.modelCalls += r.modelCalls;
        byDay.set(k, row);
      }
      await upsertDailyUsage(this.s, [...byDay.values()]);
      await this.#prune();
    } catch (e) {
      // A run log is telemetry: losing a batch must not take anything else down.
      this.s.log.warn("ai run log flush failed", {
        runs: batch.length,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}

export type RunFilter = {
  limit: number;
  offset: number;
  mode?: RunMode;
  status?: RunStatus;
  profile?: string;
};

/** Newest first, with the total matching the filter. */
export async function listRuns(s: Services, tenantId: number, f: RunFilter): Promise<RunsPage> {
  const conds: SQL[] = [eq(aiRuns.tenantId, tenantId)];
  if (f.mode) conds.push(eq(aiRuns.mode, f.mode));
  if (f.status) conds.push(eq(aiRuns.status, f.status));
  if (f.profile !== undefined) conds.push(eq(aiRuns.profile, f.profile));
  const where = and(...conds);
  const rows = await s.db.select().from(aiRuns).where(where).orderBy(desc(aiRuns.id))
    .limit(f.limit).offset(f.offset);
  const [{ total }] = await s.db.select({ total: count() }).from(aiRuns).where(where);
  return { runs: rows.map(runView), total: Number(total) };
}

/** The API view of a run (field names in docs/decisions.md). */
export function runView(r: typeof aiRuns.$inferSelect): RunView {
  return {
    id: r.id,
    timestamp: r.createdAt.toISOString(),
    mode: r.mode,
    profile: r.profile,
    apiPath: r.apiPath,
    status: r.status,
    reason: r.reason,
    model: r.model,
    rulesEvaluated: r.rulesEvaluated,
    fieldsAttempted: r.fieldsAttempted,
    fieldsTransformed: r.fieldsTransformed,
    fieldsFailed: r.fieldsFailed,
    fieldsCached: r.fieldsCached,
    modelCalls: r.modelCalls,
    latencyMs: r.latencyMs,
    tokens: {
      input: r.inputTokens,
      output: r.outputTokens,
      total: r.inputTokens + r.outputTokens,
    },
    fieldErrors: r.fieldErrors,
    rules: r.ruleSummary,
  };
}
