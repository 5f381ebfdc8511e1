/**
 * Serving while the control half starts (main.ts, cold start): the edge answers tenant hosts
 * from KV at once; a request that needs the database side (the management app, or the edge
 * while KV has not been reconciled) waits for it to start, or gets a 503 with Retry-After
 * while the database cannot be reached (start-up retries, lib/db/outage_guard.ts).
 */
import type { App } from "./bootstrap.ts";
import type { Edge } from "../edge/types.ts";
import type { Logger } from "./log.ts";
import { unavailable } from "./db/unavailable.ts";
import { startWhenDatabaseAnswers } from "./db/outage_guard.ts";
import { orAfter } from "./timeout.ts";

/**
 * How long a request waits for the control half to start: longer than the embedded database's
 * first start (PGlite's initdb, a few seconds), short of a client's patience.
 */
const START_WAIT_MS = 20_000;

export class ControlGate {
  #app: App | null = null;
  #waiting = false;
  #failed = false;
  #changed = Promise.withResolvers<void>();
  #started: Promise<App> | null = null;

  /**
   * `start` builds the control half; it runs on `begin()` or the first `ready()`, retried
   * while the database cannot be reached; any other failure goes to `failed`.
   */
  constructor(
    private start: () => Promise<App>,
    private log: Logger,
    private failed: (e: unknown) => void,
  ) {}

  /** Starts the control half, once. */
  begin(): void {
    if (this.#started) return;
    const sleep = async (ms: number) => {
      this.#set(() => this.#waiting = true);
      await new Promise((r) => setTimeout(r, ms));
      this.#set(() => this.#waiting = false);
    };
    this.#started = startWhenDatabaseAnswers(this.start, this.log, sleep).then((app) => {
      this.#set(() => this.#app = app);
      return app;
    }, (e) => {
      this.#set(() => this.#failed = true);
      this.failed(e);
      throw e;
    });
    this.#started.catch(() => {}); // handled by `failed`
  }

  /** The started program, or null before. */
  get app(): App | null {
    return this.#app;
  }

  /**
   * The started program once it is (starting it if nobody has); null while the database
   * cannot be reached, or when it has not started within `waitMs` (a start that hangs leaves
   * requests with a 503, never waiting without end).
   */
  ready(waitMs = START_WAIT_MS): Promise<App | null> {
    this.begin();
    return orAfter(this.#settled(), waitMs, () => null);
  }

  /** The app once started, null as soon as the start waits for the database or failed. */
  async #settled(): Promise<App | null> {
    for (;;) {
      if (this.#app) return this.#app;
      if (this.#waiting || this.#failed) return null;
      await this.#changed.promise;
    }
  }

  #set(change: () => void): void {
    change();
    this.#changed.resolve();
    this.#changed = Promise.withResolvers<void>();
  }
}

/** The answer while the database side cannot start. */
export function notStartedYet(): Response {
  return unavailable("Service starting: the database cannot be reached yet, try again shortly")
    .toResponse();
}

/**
 * `edge` that answers only once the control half has started: for a KV without the
 * installation marker (empty, or never reconciled), whose tenants the database must
 * project first. After that it is `edge`'s own handling, with one flag test.
 */
export function edgeAfterControl(edge: Edge, gate: ControlGate): Edge {
  let started = false;
  return {
    ...edge,
    handle(req, target, info) {
      if (started) return edge.handle(req, target, info);
      return gate.ready().then((app) => {
        if (!app) return notStartedYet();
        started = true;
        return edge.handle(req, target, info);
      });
    },
    resolveDomain(hostname) {
      if (started) return edge.resolveDomain(hostname);
      return gate.ready().then((app) => app ? edge.resolveDomain(hostname) : null);
    },
  };
}
