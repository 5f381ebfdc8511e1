/**
 * Work a request starts but does not wait for (a mail whose timing must not show in the
 * answer). Each task's failure is logged, never thrown into a request. At most MAX_TASKS
 * run at once per process; beyond that a task runs inline rather than piling up (the
 * callers are rate-limited, so this is a bound that should not be reached). Shutdown
 * and tests wait with idle(). A task still running when the process dies is lost: only
 * things the user can ask for again go here.
 */
import type { Logger } from "./log.ts";

export const MAX_TASKS = 256;

export class Background {
  #running = new Set<Promise<void>>();
  constructor(private log: Logger) {}

  /** Starts `fn` without waiting for it. */
  run(name: string, fn: () => Promise<unknown>): Promise<void> {
    const task = fn().then(
      () => {},
      (e) => this.log.warn("background task failed", { task: name, error: String(e) }),
    );
    if (this.#running.size >= MAX_TASKS) return task;
    this.#running.add(task);
    task.finally(() => this.#running.delete(task));
    return Promise.resolve();
  }

  /** Resolves once every task started so far has finished. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
