/**
 * Services are built once, complete, by the composition root (lib/bootstrap.ts) and handed
 * to every route and loop. Nothing below reads the environment. What exists only once the
 * edge and the loops run (counters, cache stats, the projector's status) is not here but in
 * lib/instance.ts, passed beside Services where it is read; tests/services_complete_test.ts
 * keeps every field here required.
 */
import type { Config } from "./config.ts";
import type { Db, DbHandle } from "./db/client.ts";
import type { Clock } from "./clock.ts";
import type { Logger, LogRing } from "./log.ts";
import type { UpstreamClient } from "./net/upstream_types.ts";
import { Background } from "./background.ts";

/** Fired after a tenant's KV snapshot is rewritten, so an in-process edge drops its memo. */
export type SnapshotListener = (slug: string) => void;

/** Writes a tenant's snapshot to KV now (lib/edge_config/projector.ts `projectSlug`). */
type EdgeProjection = { project(slug: string): Promise<unknown> };

export type Services = {
  config: Config;
  db: Db;
  dbHandle: DbHandle;
  kv: Deno.Kv;
  clock: Clock;
  log: Logger;
  /** Recent log entries of this process (GET /api/admin/logs), kept by `log`. */
  logRing: LogRing;
  /** fetch used for server-side requests (upstreams, mail, DNS-over-HTTP); injectable in tests. */
  fetch: typeof fetch;
  /** DNS resolution (domain verification, SSRF checks); injectable in tests. */
  resolveDns: typeof Deno.resolveDns;
  /**
   * The client behind every fetch of a user-supplied URL (lib/net/guarded_fetch.ts): it
   * connects to the SSRF-checked address; set by bootstrap (edge/upstream_client.ts).
   */
  userUrlClient: UpstreamClient;
  snapshotListeners: Set<SnapshotListener>;
  /**
   * Writes a tenant's snapshot to KV at its current generation (lib/edge_config/projector.ts,
   * given to createServices by bootstrap). Domain code reaches it only through
   * lib/edge_config/changes.ts.
   */
  edgeProjection: EdgeProjection;
  /** Fired after an account's quota snapshot is rewritten (userId), likewise. */
  quotaListeners: Set<(userId: string) => void>;
  /** Work started by a request and not waited for (lib/background.ts). */
  background: Background;
};

/**
 * Services from their parts. The projector reads the tenant through the finished Services,
 * so it is given as `project(services, slug)` (lib/edge_config/projector.ts `projectSlug`).
 */
export function createServices(
  parts:
    & Omit<
      Services,
      | "db"
      | "snapshotListeners"
      | "quotaListeners"
      | "fetch"
      | "resolveDns"
      | "background"
      | "edgeProjection"
    >
    & {
      fetch?: typeof fetch;
      resolveDns?: typeof Deno.resolveDns;
      project: (s: Services, slug: string) => Promise<unknown>;
    },
): Services {
  const { project, ...rest } = parts;
  const s: Services = {
    ...rest,
    db: parts.dbHandle.db,
    fetch: parts.fetch ?? globalThis.fetch.bind(globalThis),
    resolveDns: parts.resolveDns ?? Deno.resolveDns,
    snapshotListeners: new Set(),
    quotaListeners: new Set(),
    background: new Background(parts.log),
    edgeProjection: { project: (slug) => project(s, slug) },
  };
  return s;
}
