/**
 * Shutdown within 5 s in all cases (issue 22): Deno Deploy sends SIGINT and kills the
 * isolate 5 s later. On SIGINT or SIGTERM the server stops accepting and pending usage and
 * queued AI runs are flushed at once; in-flight requests may finish until
 * SHUTDOWN_DEADLINE_MS. Those still waiting then are answered 503 with Retry-After (a
 * client retries elsewhere instead of seeing a cut connection), what they recorded is
 * flushed, and the process exits, with every step bounded so the total stays under 5 s.
 */
import type { Handler } from "./http/host_router.ts";
import type { App } from "./bootstrap.ts";
import type { Logger } from "./log.ts";
import { unavailable } from "./db/unavailable.ts";

/** When the process exits at the latest, counted from the signal (Deploy kills at 5 s). */
const EXIT_BY_MS = 4_800;
/** Time given to the 503s to be written before the final flush and exit. */
const ANSWER_GRACE_MS = 250;
/** Time kept for the final flush and close after the 503s. */
const CLOSE_MS = 500;

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

/** Resolves `p`'s outcome, or undefined after `ms`; never rejects. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    p.catch(() => {}),
    new Promise((r) => timer = setTimeout(r, Math.max(0, ms))),
  ]);
  clearTimeout(timer);
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
    const deadline = Math.min(deadlineMs, EXIT_BY_MS - ANSWER_GRACE_MS - CLOSE_MS);
    const left = (until: number) => until - (performance.now() - started);
    // The last resort: nothing below may keep the process past Deploy's kill.
    setTimeout(() => Deno.exit(0), EXIT_BY_MS + 100);
    log.info("shutting down", { deadlineMs });
    const drained = server.shutdown();
    await within(app.flush(), left(deadline));
    await within(drained, left(deadline));
    gate.answerPending();
    await within(drained, Math.min(ANSWER_GRACE_MS, left(EXIT_BY_MS)));
    await within(app.close(), left(EXIT_BY_MS));
    log.info("shut down", { ms: Math.round(performance.now() - started) });
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
