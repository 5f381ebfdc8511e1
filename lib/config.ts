/**
 * The one place that reads the environment. Every variable is parsed by a zod
 * schema; a bad value stops start-up with a message naming the variable.
 */
import { sharedCookieSite, sharedCookieSiteMessage } from "./cookie_site.ts";
import { DENO_DEPLOY_INVALIDATE_URL } from "./cdn/deno_deploy.ts";
import { z } from "zod";
import { postgresUrlProblem } from "./database_url.ts";
import { mergePlans, type Plans } from "./billing/plans.ts";

const bool = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) =>
  v === "true" || v === "1" || v === "yes"
);
const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const origin = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));
const postgresUrl = z.string().superRefine((v, ctx) => {
  const problem = postgresUrlProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** Below this EDGE_MEMORY_LIMIT_MB leaves no room to run (docs/operations.md "Memory"). */
const MIN_MEMORY_LIMIT_MB = 128;
/** Deno Deploy kills an isolate past 512 MB: the guard's limit there unless set. */
const DEPLOY_MEMORY_LIMIT_MB = 512;

const EnvSchema = z.object({
  PORT: intIn(0, 65535).default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PROXY_DOMAIN: z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, "must be a hostname with optional port")
    .optional(),
  CNAME_TARGET: z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, "must be a hostname").optional(),
  // Legacy targets (the original product's) customers' domains still CNAME to: comma-separated.
  CNAME_TARGETS: z.string().regex(
    /^\s*[a-z0-9-]+(\.[a-z0-9-]+)+\s*(,\s*[a-z0-9-]+(\.[a-z0-9-]+)+\s*)*,?\s*$/i,
    "must be a comma-separated list of hostnames",
  ).optional(),
  PUBLIC_URL: origin.optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: postgresUrl.optional(),
  KV_PATH: z.string().min(1).optional(),
  ENCRYPTION_KEY: z.string().optional().refine(
    (v) => v === undefined || base64Length(v) === 32,
    "must be 32 bytes, base64-encoded",
  ),
  ADMIN_EMAILS: z.string().default(""),
  ALLOW_PRIVATE_UPSTREAMS: bool.optional(),
  ALLOW_SHARED_COOKIE_SITE: bool.default(false),
  ADMIN_EMAILS_REQUIRE_VERIFIED: bool.optional(),
  IMAGE_HOST_ASSET_ORIGIN: origin.default("https://res.cloudinary.com"),
  IMAGE_HOST_API_ORIGIN: origin.default("https://api.cloudinary.com"),
  OPENAI_BASE_URL: origin.optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  AI_TIMEOUT_MS: intIn(100, 120_000).default(15_000),
  AI_TRANSFORM_KEY: z.string().min(16).optional(),
  INGEST_KEY: z.string().min(16).optional(),
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Deno's own switch for its OpenTelemetry export; read here so the edge adds its span attributes. */
  OTEL_DENO: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_PRO: z.string().min(1).optional(),
  STRIPE_API_BASE: origin.optional(),
  MAIL_TRANSPORT_URL: origin.optional(),
  TRUSTED_PROXY_IP_HEADER: z.string().regex(/^[a-z0-9-]+$/i).optional(),
  TRUSTED_PROXY_HOPS: intIn(0, 10).optional(),
  SESSION_TTL_HOURS: intIn(1, 24 * 90).default(24 * 14),
  UPSTREAM_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  BODY_IDLE_TIMEOUT_MS: intIn(100, 600_000).default(30_000),
  EDGE_UPSTREAM_CLIENT: z.enum(["http1", "fetch"]).optional(),
  EDGE_SNAPSHOT_TTL_MS: intIn(0, 60_000).default(2_000),
  EDGE_SNAPSHOT_MAX_STALE_MS: intIn(0, 600_000).default(10_000),
  EDGE_PROJECTOR_INTERVAL_MS: intIn(50, 600_000).default(2_000),
  EDGE_CHANGE_POLL_MS: intIn(10, 60_000).default(50),
  MIGRATION_DATABASE_URL: postgresUrl.optional(),
  MIGRATE_ON_START: bool.default(true),
  DB_REQUEST_TIMEOUT_MS: intIn(100, 120_000).default(5_000),
  SHUTDOWN_DEADLINE_MS: intIn(0, 60_000).default(2_000),
  CLIENT_MAX_PENDING: intIn(0, 100_000).default(256),
  DENO_DEPLOY: bool.optional(),
  // 48 MiB: what fits a 400 MB process with the runtime, V8 and churn (docs/operations.md "Memory")
  EDGE_CACHE_MAX_BYTES: intIn(1024, 8 * 1024 ** 3).default(48 * 1024 * 1024),
  EDGE_CACHE_MAX_OBJECT_BYTES: intIn(1024, 1024 ** 3).default(8 * 1024 * 1024),
  EDGE_MEMORY_LIMIT_MB: z.coerce.number().int().min(
    MIN_MEMORY_LIMIT_MB,
    `must be at least ${MIN_MEMORY_LIMIT_MB} (MiB): the runtime, code and database driver alone take ~140`,
  ).max(1024 * 1024).optional(),
  CDN_PURGE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CDN_PURGE_TOKEN: z.string().min(1).optional(),
  CDN_PURGE_KIND: z.enum(["deno-deploy", "http"]).default("http"),
  STALE_IF_ERROR_SECONDS: intIn(0, 7 * 86400).default(300),
  USAGE_FLUSH_INTERVAL_MS: intIn(100, 3_600_000).default(10_000),
  USAGE_FLUSH_MAX_ENTRIES: intIn(1, 1_000_000).default(500),
  REQUEST_LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.01),
  REQUEST_LOG_MAX_PER_SECOND: intIn(0, 1_000_000).default(10),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  QUOTAS: z.enum(["on", "off"]).default("on"),
  VALIDATE_API_RESPONSES: bool.default(false),
  PLANS: z.string().optional().transform((v, ctx) => {
    if (v === undefined) return {};
    try {
      return plansOverride.parse(JSON.parse(v));
    } catch (e) {
      ctx.addIssue({
        code: "custom",
        message: `must be JSON like {"free":{"monthlyRequests":1000}}: ${
          e instanceof z.ZodError ? e.issues.map((i) => i.path.join(".")).join(", ") : "bad JSON"
        }`,
      });
      return z.NEVER;
    }
  }),
  QUOTA_CHECK_INTERVAL_MS: intIn(0, 3_600_000).optional(),
  GUARDRAIL_CHECK_INTERVAL_MS: intIn(0, 60_000).default(20_000),
  OVERAGE_REPORT_INTERVAL_MS: intIn(1000, 86_400_000).default(3_600_000),
  STRIPE_METER_REQUESTS: z.string().min(1).max(100).default("cachely_overage_requests"),
  STRIPE_METER_BYTES: z.string().min(1).max(100).default("cachely_overage_bytes"),
  ...oauthEnv("GITHUB"),
  ...oauthEnv("GOOGLE"),
});

/** Per provider: client id and secret turn it on; the endpoint URLs default to the provider's. */
function oauthEnv<P extends "GITHUB" | "GOOGLE">(p: P) {
  const endpoint = z.url({ protocol: /^https?$/ }).optional();
  return {
    [`OAUTH_${p}_CLIENT_ID`]: z.string().min(1).max(200).optional(),
    [`OAUTH_${p}_CLIENT_SECRET`]: z.string().min(1).max(500).optional(),
    [`OAUTH_${p}_AUTHORIZE_URL`]: endpoint,
    [`OAUTH_${p}_TOKEN_URL`]: endpoint,
    [`OAUTH_${p}_USERINFO_URL`]: endpoint,
  } as Record<`OAUTH_${P}_${"CLIENT_ID" | "CLIENT_SECRET" | OAuthUrl}`, typeof endpoint>;
}
type OAuthUrl = "AUTHORIZE_URL" | "TOKEN_URL" | "USERINFO_URL";

export type OAuthProviderName = "github" | "google";
export type OAuthProviderConfig = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
};
const OAUTH_DEFAULTS: Record<OAuthProviderName, Record<OAuthUrl, string>> = {
  github: {
    AUTHORIZE_URL: "https://github.com/login/oauth/authorize",
    TOKEN_URL: "https://github.com/login/oauth/access_token",
    USERINFO_URL: "https://api.github.com/user",
  },
  google: {
    AUTHORIZE_URL: "https://accounts.google.com/o/oauth2/v2/auth",
    TOKEN_URL: "https://oauth2.googleapis.com/token",
    USERINFO_URL: "https://openidconnect.googleapis.com/v1/userinfo",
  },
};

/** The configured providers; one with only half its credentials stops start-up. */
function oauthProviders(e: Record<string, unknown>) {
  const out: Partial<Record<OAuthProviderName, OAuthProviderConfig>> = {};
  for (const name of ["github", "google"] as const) {
    const v = (k: string) => e[`OAUTH_${name.toUpperCase()}_${k}`] as string | undefined;
    const id = v("CLIENT_ID"), secret = v("CLIENT_SECRET");
    if (!id && !secret) continue;
    if (!id || !secret) {
      const missing = `OAUTH_${name.toUpperCase()}_${id ? "CLIENT_SECRET" : "CLIENT_ID"}`;
      throw new ConfigError(`Invalid environment:\n  ${missing}: is required with its pair`);
    }
    const url = (k: OAuthUrl) => v(k) ?? OAUTH_DEFAULTS[name][k];
    out[name] = {
      clientId: id,
      clientSecret: secret,
      authorizeUrl: url("AUTHORIZE_URL"),
      tokenUrl: url("TOKEN_URL"),
      userinfoUrl: url("USERINFO_URL"),
    };
  }
  return out;
}

const planOverride = z.object({
  priceUsd: z.number().min(0).max(1e6),
  tenants: z.number().int().min(0).nullable(),
  monthlyRequests: z.number().int().min(0),
  monthlyBytes: z.number().int().min(0),
  overLimit: z.enum(["pause", "meter"]),
  overageUsdPerMillionRequests: z.number().min(0),
  overageUsdPer10Gb: z.number().min(0),
}).partial().strict();
const plansOverride = z.object({ free: planOverride, pro: planOverride }).partial().strict();

/**
 * TRUSTED_PROXY_HOPS proxies append to TRUSTED_PROXY_IP_HEADER (default x-forwarded-for);
 * a header named without hops means one proxy. Zero hops: trust no header.
 */
function trustedProxies(header: string | undefined, hops: number | undefined) {
  const n = hops ?? (header ? 1 : 0);
  return n > 0 ? { header: (header ?? "x-forwarded-for").toLowerCase(), hops: n } : null;
}

/** True for a listen address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}

function base64Length(v: string): number {
  try {
    return atob(v.trim()).length;
  } catch {
    return -1;
  }
}

export type Config = {
  port: number;
  host: string;
  /** Suffix of tenant hosts: `<slug>.<proxyDomain>`, lower-case, may carry a port. */
  proxyDomain: string;
  /** The one host every custom domain may CNAME to (besides its tenant host); no port. */
  cnameTarget: string;
  /** Legacy hosts a custom domain may also CNAME to (CNAME_TARGETS), lower-case; not shown. */
  legacyCnameTargets: string[];
  /** Origin of the management app, used in links (webhook URLs, invites). */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  kvPath: string | undefined;
  encryptionKey: string | undefined;
  adminEmails: Set<string>;
  /** ADMIN_EMAILS grants master admin only to verified addresses (default: unless loopback). */
  adminEmailsNeedVerification: boolean;
  allowPrivateUpstreams: boolean;
  imageHostAssetOrigin: string;
  imageHostApiOrigin: string;
  openai: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    timeoutMs: number;
  };
  aiTransformKey: string | undefined;
  ingestKey: string | undefined;
  /** Bearer token of GET /metrics; unset -> /metrics is 404. */
  metricsToken: string | undefined;
  /**
   * OTEL_DENO=true: Deno exports traces over OTLP, and the edge puts its attributes on each
   * request's span (edge/telemetry.ts). Off: the edge never touches the OpenTelemetry API.
   */
  tracing: boolean;
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    pricePro: string | undefined;
    apiBase: string | undefined;
  };
  mailTransportUrl: string | undefined;
  /** Where the client IP comes from behind proxies (lib/http/client_ip.ts); null: the connection. */
  trustedProxies: { header: string; hops: number } | null;
  sessionTtlMs: number;
  upstreamTimeoutMs: number;
  /** A request body that sends nothing for this long is a 408 (lib/http/validate.ts readBodyText). */
  bodyIdleTimeoutMs: number;
  /**
   * How the edge talks to upstreams: its own HTTP/1.1 client (default), or fetch(), the
   * default behind HTTP_PROXY/HTTPS_PROXY/ALL_PROXY, which only fetch honours.
   */
  edgeUpstreamClient: "http1" | "fetch";
  edgeSnapshotTtlMs: number;
  /**
   * Oldest snapshot an instance may answer from (serve-stale-while-refresh only inside it);
   * never below edgeSnapshotTtlMs.
   */
  edgeSnapshotMaxStaleMs: number;
  /** How often every instance looks for tenants whose KV snapshot is behind Postgres. */
  edgeProjectorIntervalMs: number;
  /** How often an instance on a local KV file polls the change log (edge/change_feed.ts). */
  edgeChangePollMs: number;
  /** Session-capable URL for migrations (direct or session pooler); else databaseUrl. */
  migrationDatabaseUrl: string | undefined;
  /** Migrate at start under the advisory lock (default); false: only check and exit. */
  migrateOnStart: boolean;
  /** Per-request database deadline and statement timeout of management requests. */
  dbRequestTimeoutMs: number;
  /** How long in-flight requests may run after SIGINT/SIGTERM (exit always within 5 s). */
  shutdownDeadlineMs: number;
  /** Requests one public client address may have waiting at once; 0: no cap (lib/http/client_cap.ts). */
  clientMaxPending: number;
  /** Running on Deno Deploy: KV is Deno.openKv() and nothing is written to disk. */
  denoDeploy: boolean;
  edgeCacheMaxBytes: number;
  edgeCacheMaxObjectBytes: number;
  /**
   * The memory guard's limit in MiB (EDGE_MEMORY_LIMIT_MB; 512 on Deno Deploy, where
   * DENO_DEPLOYMENT_ID is set): the edge cache's bound shrinks to keep RSS under it.
   * Undefined: no guard.
   */
  edgeMemoryLimitMb: number | undefined;
  /**
   * Where cache-version bumps purge CDN tags (lib/cdn/purge.ts); unset: no purge. With
   * CDN_PURGE_KIND=deno-deploy the URL defaults to Deno Deploy's invalidation endpoint.
   */
  cdnPurge: { url: string; token?: string; kind: "deno-deploy" | "http" } | undefined;
  staleIfErrorSeconds: number;
  usage: {
    flushIntervalMs: number;
    flushMaxEntries: number;
    requestLogSampleRate: number;
    /** Sampled request logs kept per tenant per second per instance; 0 = no cap. */
    requestLogMaxPerSecond: number;
  };
  logLevel: "debug" | "info" | "warn" | "error";
  /** Plan quotas (tenant limits, monthly traffic, domain rules); QUOTAS=off for self-hosting. */
  quotas: boolean;
  /**
   * Check every JSON success body against its route's declared `response` schema (500
   * `response_schema_mismatch` on a mismatch). On in tests, off by default (docs/decisions.md).
   */
  validateApiResponses: boolean;
  /** The plans table (lib/billing/plans.ts) with PLANS overrides applied. */
  plans: Plans;
  /** Least time between two quota evaluations of one account (threshold gate). */
  quotaCheckIntervalMs: number;
  /** How often each instance checks experiment guardrails (0: never). */
  guardrailCheckIntervalMs: number;
  /** How often the metered-overage reporter looks for days to report. */
  overageReportIntervalMs: number;
  /** Stripe billing meter event names for pro overage. */
  stripeMeters: { requests: string; bytes: string };
  /** OAuth sign-in providers that have credentials (lib/auth/oauth/). */
  oauth: Partial<Record<OAuthProviderName, OAuthProviderConfig>>;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Proxy variables fetch() honours; the edge's own client does not (docs/decisions.md). */
const PROXY_VARS = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
];

/**
 * What a serving process starts with: loadConfig, then the refusal of tenant hosts on the
 * dashboard's registrable domain unless ALLOW_SHARED_COOKIE_SITE=true (lib/cookie_site.ts),
 * which needs the Public Suffix List only when the hosts could share a site at all.
 */
export async function loadCheckedConfig(env: Record<string, string | undefined>): Promise<Config> {
  const config = loadConfig(env);
  const allowed = /^(true|1|yes)$/.test(env.ALLOW_SHARED_COOKIE_SITE ?? ""); // loadConfig checked it
  const site = allowed ? null : await sharedCookieSite(config.publicUrl, config.proxyDomain);
  if (site) {
    throw new ConfigError(`Invalid environment:\n  PROXY_DOMAIN: ${sharedCookieSiteMessage(site)}`);
  }
  return config;
}

/**
 * Parses an environment map into a Config. Throws ConfigError naming each bad variable.
 * The cookie-site check is loadCheckedConfig's.
 * Long: one environment schema turned into the one Config object, a property per setting (most one
 * line, a few with the reason for their default); a table read by setting name, and splitting it
 * would only scatter the defaults.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  if (e.DENO_DEPLOY && !e.DATABASE_URL) {
    // Deploy's filesystem is no place for the embedded database (nothing is written there).
    throw new ConfigError("Invalid environment:\n  DATABASE_URL: is required on Deno Deploy");
  }
  const port = e.PORT;
  const proxyDomain = (e.PROXY_DOMAIN ?? `localhost:${port}`).toLowerCase();
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    port,
    host: e.HOST,
    proxyDomain,
    cnameTarget: (e.CNAME_TARGET ??
      `proxy.${(e.PROXY_DOMAIN ?? "localhost").replace(/:\d+$/, "")}`).toLowerCase(),
    legacyCnameTargets: (e.CNAME_TARGETS ?? "").split(",").map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    publicUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    kvPath: e.KV_PATH,
    encryptionKey: e.ENCRYPTION_KEY?.trim(),
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
    ),
    // On a server others can reach, whoever signs up first with a listed address must not
    // become master admin before proving it (docs/decisions.md "Email verification").
    adminEmailsNeedVerification: e.ADMIN_EMAILS_REQUIRE_VERIFIED ?? !isLoopbackHost(e.HOST),
    // Only a server nobody else can reach may proxy to private addresses by default: with
    // open sign-up, anyone could otherwise point apiOrigin at 169.254.169.254 (docs/decisions.md).
    allowPrivateUpstreams: e.ALLOW_PRIVATE_UPSTREAMS ?? isLoopbackHost(e.HOST),
    imageHostAssetOrigin: e.IMAGE_HOST_ASSET_ORIGIN,
    imageHostApiOrigin: e.IMAGE_HOST_API_ORIGIN,
    openai: {
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.AI_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    aiTransformKey: e.AI_TRANSFORM_KEY,
    ingestKey: e.INGEST_KEY,
    metricsToken: e.METRICS_TOKEN,
    tracing: e.OTEL_DENO === "true" || e.OTEL_DENO === "1",
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      pricePro: e.STRIPE_PRICE_PRO,
      apiBase: e.STRIPE_API_BASE,
    },
    mailTransportUrl: e.MAIL_TRANSPORT_URL,
    trustedProxies: trustedProxies(e.TRUSTED_PROXY_IP_HEADER, e.TRUSTED_PROXY_HOPS),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS,
    edgeUpstreamClient: e.EDGE_UPSTREAM_CLIENT ??
      (PROXY_VARS.some((k) => cleaned[k]) ? "fetch" : "http1"),
    edgeSnapshotTtlMs: e.EDGE_SNAPSHOT_TTL_MS,
    edgeSnapshotMaxStaleMs: Math.max(e.EDGE_SNAPSHOT_MAX_STALE_MS, e.EDGE_SNAPSHOT_TTL_MS),
    edgeProjectorIntervalMs: e.EDGE_PROJECTOR_INTERVAL_MS,
    edgeChangePollMs: e.EDGE_CHANGE_POLL_MS,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    migrateOnStart: e.MIGRATE_ON_START,
    dbRequestTimeoutMs: e.DB_REQUEST_TIMEOUT_MS,
    shutdownDeadlineMs: Math.min(e.SHUTDOWN_DEADLINE_MS, 2_000),
    clientMaxPending: e.CLIENT_MAX_PENDING,
    denoDeploy: e.DENO_DEPLOY ?? false,
    edgeCacheMaxBytes: e.EDGE_CACHE_MAX_BYTES,
    edgeCacheMaxObjectBytes: e.EDGE_CACHE_MAX_OBJECT_BYTES,
    edgeMemoryLimitMb: e.EDGE_MEMORY_LIMIT_MB ??
      (cleaned.DENO_DEPLOYMENT_ID ? DEPLOY_MEMORY_LIMIT_MB : undefined),
    cdnPurge: e.CDN_PURGE_URL || e.CDN_PURGE_KIND === "deno-deploy"
      ? {
        url: e.CDN_PURGE_URL ?? DENO_DEPLOY_INVALIDATE_URL,
        token: e.CDN_PURGE_TOKEN,
        kind: e.CDN_PURGE_KIND,
      }
      : undefined,
    staleIfErrorSeconds: e.STALE_IF_ERROR_SECONDS,
    usage: {
      flushIntervalMs: e.USAGE_FLUSH_INTERVAL_MS,
      flushMaxEntries: e.USAGE_FLUSH_MAX_ENTRIES,
      requestLogSampleRate: e.REQUEST_LOG_SAMPLE_RATE,
      requestLogMaxPerSecond: e.REQUEST_LOG_MAX_PER_SECOND,
    },
    logLevel: e.LOG_LEVEL,
    quotas: e.QUOTAS === "on",
    validateApiResponses: e.VALIDATE_API_RESPONSES,
    plans: mergePlans(e.PLANS),
    // Half a flush interval: every flush of a moving account is evaluated despite timer jitter.
    quotaCheckIntervalMs: e.QUOTA_CHECK_INTERVAL_MS ?? Math.floor(e.USAGE_FLUSH_INTERVAL_MS / 2),
    guardrailCheckIntervalMs: e.GUARDRAIL_CHECK_INTERVAL_MS,
    overageReportIntervalMs: e.OVERAGE_REPORT_INTERVAL_MS,
    stripeMeters: { requests: e.STRIPE_METER_REQUESTS, bytes: e.STRIPE_METER_BYTES },
    oauth: oauthProviders(e),
  };
}
