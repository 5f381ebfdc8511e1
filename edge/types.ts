/**
 * What the edge needs from the rest of the program. main.ts builds these; the
 * implementations that touch Postgres live in lib/ and are handed in, so edge/
 * itself never imports the database layer.
 */
import type { Config } from "../lib/config.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/log.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { UpstreamClient, UpstreamResult } from "../lib/net/upstream_types.ts";
import type { PathRoute } from "./route.ts";
import type { PurgeMatch } from "./cache/purges.ts";

/** Where a request landed: a tenant host, its preview host, or an active custom domain. */
export type EdgeTarget =
  | { surface: "tenant"; slug: string }
  | { surface: "preview"; slug: string }
  | { surface: "domain"; hostname: string };

export type RequestInfo = { clientIp: string };

export type CacheOutcome = "HIT" | "MISS" | "STALE" | "BYPASS";

/** One proxied request, as usage sees it. */
export type UsageRecord = {
  tenantId: number;
  ts: number;
  method: string;
  path: string;
  status: number;
  bytes: number;
  cache: CacheOutcome | null;
  kind: "api" | "asset" | "site" | "other";
  durationMs: number;
  /** A bot refused on the asset path: counted as blocked, never as bandwidth. */
  blocked?: boolean;
  /** Upstream requests this request made (0 or absent for a hit), their bytes and time. */
  originRequests?: number;
  originBytes?: number;
  originMs?: number;
  /** The last origin answer's status when the request reached the origin (a 5xx the visitor got as 502). */
  originStatus?: number;
  /**
   * A background refresh (stale-while-revalidate) that a recorded request started: it counts
   * its origin request and bytes only, not as a request, bandwidth or a cache outcome.
   */
  background?: boolean;
  experiment?: {
    experimentId: number;
    variantId: number;
    variantKey: string;
    /** The visitor's hash and network hash (edge/experiments.ts), for guardrails. */
    visitor?: number;
    network?: number;
  } | null;
};

/** Receives usage from the edge; must never block or throw into the request. */
export type UsageSink = { record(r: UsageRecord): void };

/** Runs a tenant's active AI rules for a profile over a JSON body (filled in by lib/ai). */
export type TransformRunner = {
  runtime(input: {
    snapshot: EdgeSnapshot;
    profile: string;
    apiPath: string;
    body: string;
  }): Promise<{
    body: string;
    outcome: "applied" | "partial" | "passthrough" | "error";
    skipReason: string | null;
  }>;
};

/** OpenTelemetry for the edge (edge/telemetry.ts), present when tracing is on. */
export type EdgeTracing = {
  /** Puts the request's attributes on its active (Deno.serve) span. */
  annotate(a: {
    tenant: string;
    cache: CacheOutcome | null;
    kind: UsageRecord["kind"];
    upstreamRequests: number;
    upstreamMs: number;
    upstreamStatus?: number;
  }): void;
  /** Runs one upstream request in a child span. */
  upstream(
    url: URL,
    method: string,
    call: () => Promise<UpstreamResult>,
  ): Promise<UpstreamResult>;
};

export type EdgeDeps = {
  config: Config;
  kv: Deno.Kv;
  clock: Clock;
  log: Logger;
  /** Every upstream request goes through it (edge/upstream_client.ts picks one). */
  upstream: UpstreamClient;
  resolveDns: typeof Deno.resolveDns;
  usage: UsageSink;
  transform: TransformRunner | null;
  /** Span attributes and upstream spans; absent or null unless OTEL_DENO=true. */
  tracing?: EdgeTracing | null;
};

export type Edge = {
  /** A Response directly for an in-memory hit, else a promise of one. */
  handle(req: Request, target: EdgeTarget, info: RequestInfo): Response | Promise<Response>;
  /** Resolves an active custom domain to its tenant slug (memoised KV read: sync while fresh). */
  resolveDomain(hostname: string): Promise<string | null> | string | null;
  /** Drops the memoised snapshot of a tenant (called after management writes). */
  invalidate(slug: string): void;
  /** Drops the memoised quota snapshot of an account (called after it is republished). */
  invalidateQuota(userId: string): void;
  /** Drops everything memoised from KV (the change feed lost track, KV was rebuilt). */
  invalidateAll(): void;
  /** Closes idle upstream connections (shutdown). */
  close(): void;
};

/** What the edge knows about a URL's caching (edge/explain.ts), read by lib/cache/explain.ts. */
/** One reason a request is not served from the cache, in words a user reads. */
export type Blocker = { code: string; message: string };

export type Explanation = {
  kind: PathRoute["kind"];
  cacheMode: "fixed" | "origin";
  /** Whether a GET of the URL may be answered from the cache at all. */
  eligible: boolean;
  blockers: Blocker[];
  /** The primary cache key, or null when the request is never keyed. */
  key: string | null;
  /** The request headers the origin said the key varies on (origin mode), when known. */
  varyOn: string | null;
  stored: {
    storedAt: number;
    ttlMs: number;
    status: number;
    fresh: boolean;
    /** Stored before a purge that matches it: the next request drops it. */
    purged: boolean;
  } | null;
  lastFetch: { at: number; cacheStatus: string } | null;
  lastPurge: PurgeMatch | null;
};
