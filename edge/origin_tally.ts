/**
 * What one request cost the origin: upstream requests, bytes and time, counted by
 * fetchUpstream for the request whose handler is running (usage's originRequests and
 * originBytes). Only the async path opens a tally: a hit answered synchronously
 * fetches nothing. A coalesced miss counts on the request that made the fetch alone, so the
 * counters say what reached the origin.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type OriginTally = {
  requests: number;
  bytes: number;
  ms: number;
  /** The last upstream answer's status (span attributes, edge/telemetry.ts). */
  status?: number;
  /**
   * Set once the request's usage is recorded: an upstream request made in its context after
   * that (a stale-while-revalidate refresh, edge/cache/through.ts) is reported through it.
   */
  late?: (bytes: number, ms: number) => void;
};

const current = new AsyncLocalStorage<OriginTally>();

/** Runs `fn` with a fresh tally that fetchUpstream adds to; answers both. */
export function withOriginTally<T>(tally: OriginTally, fn: () => Promise<T>): Promise<T> {
  return current.run(tally, fn);
}

/** Adds one upstream request to the running request's tally, if any. */
export function countOrigin(bytes: number, ms: number, status?: number): void {
  const t = current.getStore();
  if (t === undefined) return;
  if (t.late !== undefined) return t.late(bytes, ms);
  t.requests++;
  t.bytes += bytes;
  t.ms += ms;
  t.status = status;
}
