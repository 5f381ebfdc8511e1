/**
 * The usage flush target before the database is connected (edge/boot.ts): the edge counts
 * from its first request, the PostgreSQL target arrives when the control half has started. A
 * flush before that fails like a flush during an outage: the deltas stay pending for the next.
 */
import type { UsageBatch, UsageFlushTarget } from "./types.ts";

export class DeferredFlushTarget implements UsageFlushTarget {
  #target: UsageFlushTarget | null = null;

  bind(target: UsageFlushTarget): void {
    this.#target = target;
  }

  write(batch: UsageBatch): Promise<{ discarded: number }> {
    if (!this.#target) return Promise.reject(new Error("the database is not connected yet"));
    return this.#target.write(batch);
  }

  pruneLogs(before: Date, now: number): Promise<number> {
    return this.#target?.pruneLogs?.(before, now) ?? Promise.resolve(0);
  }
}
