/**
 * Shutdown steps, each within its own budget: one step that waits (a loop's last tick on a
 * stuck database, a pool that will not close) is cut at its budget and named in the log,
 * instead of taking the time of the steps after it, the final flush among them, and ending
 * the process on the hard exit timer. How long each step took is kept for the log line.
 */
import type { Logger } from "./log.ts";

export type ShutdownSteps = {
  /** Runs `step`, waiting at most `budgetMs` for it; never throws. */
  run(name: string, step: () => Promise<unknown>, budgetMs: number): Promise<void>;
  /** Milliseconds each step took (its budget when cut). */
  took: Record<string, number>;
};

export function shutdownSteps(log: Logger): ShutdownSteps {
  const took: Record<string, number> = {};
  return {
    took,
    async run(name, step, budgetMs) {
      const started = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        Promise.resolve().then(step).then(() => "done", (e) => e),
        new Promise((r) => timer = setTimeout(() => r("cut"), Math.max(0, budgetMs))),
      ]);
      clearTimeout(timer);
      took[name] = Math.round(performance.now() - started);
      if (outcome === "cut") log.warn("shutdown step cut at its budget", { step: name, budgetMs });
      else if (outcome !== "done") {
        log.warn("shutdown step failed", {
          step: name,
          error: outcome instanceof Error ? outcome.message : String(outcome),
        });
      }
    },
  };
}
