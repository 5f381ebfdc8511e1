/**
 * The one way the service writes Deno KV: transient failures (a shared SQLite file
 * locked by another process, a KV Connect hiccup) are retried with jittered
 * exponential backoff, so two instances writing at the same moment never turn a
 * visitor's request into a 500. Anything else is thrown at once.
 */

/** Errors worth another try: lock contention and transport trouble, never a bad value. */
export function isTransientKvError(e: unknown): boolean {
  const msg = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /database is locked|database table is locked|SQLITE_BUSY|busy|timed? ?out|temporar|unavailable|connection (reset|refused|closed)|too many requests|\b(429|502|503|504)\b/i
    .test(msg);
}

export type KvRetryOptions = {
  /** Attempts in all, the first included. @default 10 */
  attempts?: number;
  /** First backoff; doubled each time, ±50 % jitter. @default 5 */
  baseMs?: number;
  /** Backoff ceiling. @default 250 */
  maxMs?: number;
};

/**
 * Runs `op` (a read-check-write or a single write) again while it fails with a
 * transient KV error. `op` must be safe to repeat: build the atomic operation inside it.
 */
export async function kvRetry<T>(op: () => Promise<T>, opts: KvRetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 10;
  const base = opts.baseMs ?? 5;
  const max = opts.maxMs ?? 250;
  for (let i = 1;; i++) {
    try {
      return await op();
    } catch (e) {
      if (i >= attempts || !isTransientKvError(e)) throw e;
      const backoff = Math.min(max, base * 2 ** (i - 1));
      await new Promise((r) => setTimeout(r, backoff * (0.5 + Math.random())));
    }
  }
}

/** Commits an atomic operation built by `build`, retrying transient failures. */
export function kvCommit(
  build: () => Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  return kvRetry(() => build().commit());
}
