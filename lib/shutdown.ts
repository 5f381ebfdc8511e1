/**
 * Shutdown within 5 s in all cases: Deno Deploy sends SIGINT and kills the
 * isolate 5 s later. On SIGINT or SIGTERM the server stops accepting and pending usage and
 * queued AI runs are flushed at once; in-flight requests may finish until
 * SHUTDOWN_DEADLINE_MS (at most IN_FLIGHT_MAX_MS). Those still waiting then are answered 503 with Retry-After (a
 * client retries elsewhere instead of seeing a cut connection), what they recorded is
 * flushed, and the process exits, with every step bounded so the total stays under 5 s.
 */
import type { Handler } from "./http/host_router.ts";
import type { App } from "./bootstrap.ts";
import type { Logger } from "./log.ts";
import { unavailable } from "./db/unavailable.ts";
import { shutdownSteps } from "./shutdown_steps.ts";

/** When the process exits at the latest, counted from the signal (Deploy kills at 5 s). */
const EXIT_BY_MS = 4_800;
/** Time given to the 503s to be written before the final flush and exit. */
const ANSWER_GRACE_MS = 250;
/**
 * The longest in-flight requests may run after the signal (SHUTDOWN_DEADLINE_MS may only
 * shorten it). Waiting until 4.05 s made every exit with a slow request in flight take 4.3 s,
 * 4.8 s on a slower isolate; with 2 s, the 503s and the close, it exits by about 3 s.
 */
export const IN_FLIGHT_MAX_MS = 2_000;

function shuttingDown(): Response {
  return unavailable(
    "Service restarting: the request was not finished, try again shortly",
    { connection: "close" },
  ).toResponse();
}

/**
 * `handler` whose pending answers `answerPending()` replaces by a 503. A response whose
 * headers were already sent (a body still streaming) cannot be changed and is cut at exit.
 * A synchronous answer (a cache hit) passes untouched; a pending one is tracked in a set
 * only while it runs, so nothing accumulates per request.
 */
export function interruptible(handler: Handler): { handler: Handler; answerPending(): void } {
  const pending = new Set<() => void>();
  let stopped = false;
  return {
    handler: (req, info) => {
      if (stopped) return shuttingDown();
      const answer = handler(req, info);
      if (answer instanceof Response) return answer;
      return new Promise<Response>((resolve, reject) => {
        const cut = () => resolve(shuttingDown());
        pending.add(cut);
        answer.then((r) => {
          pending.delete(cut);
          resolve(r);
        }, (e) => {
          pending.delete(cut);
          reject(e);
        });
      });
    },
    answerPending() {
      stopped = true;
      for (const cut of pending) cut();
      pending.clear();
    },
  };
}

/** Installs the SIGINT / SIGTERM handling described above. */
export function exitOnSignals(opts: {
  server: Deno.HttpServer;
  app: Pick<App, "flush" | "close">;
  gate: { answerPending(): void };
  deadlineMs: number;
  log: Logger;
}): void {
  const { server, app, gate, deadlineMs, log } = opts;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    const deadline = Math.min(deadlineMs, IN_FLIGHT_MAX_MS);
    const left = (until: number) => until - (performance.now() - started);
    // The last resort: nothing below may keep the process past Deploy's kill.
    setTimeout(() => Deno.exit(0), EXIT_BY_MS + 100);
    log.info("shutting down", { deadlineMs });
    const steps = shutdownSteps(log);
    const drained = server.shutdown();
    await steps.run("flush", () => app.flush(), left(deadline));
    await steps.run("in flight", () => drained, left(deadline));
    gate.answerPending();
    await steps.run("answers", () => drained, Math.min(ANSWER_GRACE_MS, left(EXIT_BY_MS)));
    await steps.run("close", () => app.close(), left(EXIT_BY_MS));
    log.info("shut down", { ms: Math.round(performance.now() - started), stepsMs: steps.took });
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
