/**
 * Idle keep-alive connections per upstream origin. Most recently used first (a warm
 * connection is the least likely to have been closed by the server); a connection
 * idle longer than `idleMs` is closed instead of reused, since servers close idle
 * connections on their own schedule (Node 5 s, nginx 75 s) and a request written
 * into a closing one fails.
 */
import type { Wire } from "./wire.ts";

export type PoolOptions = {
  /** Idle time after which a connection is closed (ms). */
  idleMs: number;
  /** Idle connections kept per origin; more are closed. */
  maxIdlePerOrigin: number;
  /** Idle connections kept in all. */
  maxIdle: number;
};

export class ConnectionPool {
  #idle = new Map<string, Wire[]>();
  #count = 0;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(readonly opts: PoolOptions) {}

  get idleCount(): number {
    return this.#count;
  }

  /** A live idle connection to `key`, or undefined. */
  take(key: string, now: number): Wire | undefined {
    const list = this.#idle.get(key);
    if (!list) return undefined;
    let w: Wire | undefined;
    while ((w = list.pop()) !== undefined) {
      this.#count--;
      if (now - w.idleSince <= this.opts.idleMs && !w.closed) break;
      w.close();
    }
    if (list.length === 0) this.#idle.delete(key);
    return w;
  }

  /** Keeps a connection whose exchange ended cleanly; closes it when over a bound. */
  give(w: Wire, now: number): void {
    if (w.closed || w.pending !== 0) return w.close();
    let list = this.#idle.get(w.key);
    if (!list) this.#idle.set(w.key, list = []);
    if (list.length >= this.opts.maxIdlePerOrigin || this.#count >= this.opts.maxIdle) {
      return w.close();
    }
    w.idleSince = now;
    list.push(w);
    this.#count++;
    this.#startSweeper();
  }

  /** Closes connections idle past `idleMs` (file descriptors of origins no longer asked). */
  sweep(now: number): void {
    for (const [key, list] of this.#idle) {
      const keep = list.filter((w) => now - w.idleSince <= this.opts.idleMs && !w.closed);
      for (const w of list) if (!keep.includes(w)) w.close();
      this.#count -= list.length - keep.length;
      if (keep.length === 0) this.#idle.delete(key);
      else this.#idle.set(key, keep);
    }
    if (this.#count === 0) this.#stopSweeper();
  }

  closeAll(): void {
    for (const list of this.#idle.values()) for (const w of list) w.close();
    this.#idle.clear();
    this.#count = 0;
    this.#stopSweeper();
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => this.sweep(performance.now()), this.opts.idleMs);
    Deno.unrefTimer(this.#sweeper as unknown as number); // never keeps the process alive
  }

  #stopSweeper(): void {
    if (this.#sweeper === undefined) return;
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
