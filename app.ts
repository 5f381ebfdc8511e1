/**
 * The request handler: routes on the Host header. Tenant hosts, tenant preview
 * hosts and active custom domains go to the edge; every other host goes to the
 * management app (API and dashboard).
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./lib/http/env.ts";
import type { Services } from "./lib/services.ts";
import type { Edge, RequestInfo } from "./edge/types.ts";
import { loadApi } from "./routes/api/lazy.ts";
import { metricsRefusal, metricsText } from "./lib/metrics/prometheus.ts";
import { pageRoutes } from "./routes/pages/mod.tsx";
import { classifyHost, type HostClass } from "./lib/http/host.ts";
import { clientIp, type TrustedProxies } from "./lib/http/client_ip.ts";

/** Returns a Response directly for an edge hit (no promise), else a promise of one. */
export type Handler = (
  req: Request,
  info?: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

export function createManagementApp(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", withServices(s));
  const api = lazyApi(s);
  app.get("/metrics", async (c) => {
    const refusal = metricsRefusal(s, c.req.header("authorization") ?? null);
    if (refusal === 404) return c.json({ error: { code: "not_found", message: "Not found" } }, 404);
    if (refusal === 401) {
      return c.json({ error: { code: "unauthorized", message: "Invalid metrics token" } }, 401);
    }
    return c.body(await metricsText(s), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
    });
  });
  app.all("/api", api);
  app.all("/api/*", api);
  // The form bridge (routes/pages/forms.tsx) calls the API in-process through this app.
  app.route("/", pageRoutes((req, env) => app.fetch(req, env)));
  return app;
}

function withServices(s: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("services", s);
    c.set("clientIp", (c.env as { clientIp?: string } | undefined)?.clientIp ?? "unknown");
    await next();
  };
}

/**
 * /api and below: the API app (routes/api/mod.ts) is imported and built on the first API
 * request, then answers every one with the same request and env (so the same context).
 */
function lazyApi(s: Services): (c: Context<AppEnv>) => Promise<Response> {
  let built: Promise<Hono<AppEnv>> | undefined;
  const build = async () => {
    const { apiRoutes } = await loadApi();
    const api = new Hono<AppEnv>();
    api.use("*", withServices(s));
    api.route("/api", apiRoutes());
    return api;
  };
  return async (c) => {
    built ??= build();
    return await (await built).fetch(c.req.raw, c.env);
  };
}

export function createHandler(s: Services, edge: Edge): Handler {
  const app = createManagementApp(s);
  const appHost = new URL(s.config.publicUrl).hostname;
  const trusted = s.config.trustedProxies;
  const hosts = new HostMemo(s.config.proxyDomain);
  // Not async: a cache hit at the edge goes straight through without another promise.
  return (req, info) => {
    const host = hosts.classify(requestHost(req));
    const reqInfo = new LazyRequestInfo(req, info, trusted);
    if (host.kind !== "other") {
      return edge.handle(req, { surface: host.kind, slug: host.slug }, reqInfo);
    }
    return routeOther(host.hostname, req, reqInfo);
  };

  async function routeOther(hostname: string, req: Request, reqInfo: LazyRequestInfo) {
    if (hostname !== appHost && hostname !== "" && await edge.resolveDomain(hostname)) {
      return edge.handle(req, { surface: "domain", hostname }, reqInfo);
    }
    return await app.fetch(req, { clientIp: reqInfo.clientIp });
  }
}

/** The client IP, worked out only when something asks (most cache hits never do). */
class LazyRequestInfo implements RequestInfo {
  #ip: string | undefined;
  constructor(
    private req: Request,
    private info: Deno.ServeHandlerInfo | undefined,
    private trusted: TrustedProxies,
  ) {}
  get clientIp(): string {
    return this.#ip ??= clientIp(this.req, this.info?.remoteAddr, this.trusted);
  }
}

/** classifyHost() memoised per Host header value (bounded). */
class HostMemo {
  private memo = new Map<string, HostClass>();
  constructor(private proxyDomain: string) {}
  classify(host: string): HostClass {
    let c = this.memo.get(host);
    if (c === undefined) {
      c = classifyHost(host, this.proxyDomain);
      if (this.memo.size >= 10_000) this.memo.clear();
      this.memo.set(host, c);
    }
    return c;
  }
}

/**
 * The request's host (with port). Deno.serve builds the URL's authority from the Host
 * header (or an absolute-form target, which RFC 9112 §3.2.2 says wins), so it is read
 * from the URL: a cache hit then never builds the request's Headers object, which
 * copies every request header out of the runtime (bench/ANALYSIS.md).
 */
function requestHost(req: Request): string {
  const url = req.url;
  const s = url.indexOf("://") + 3;
  const e = url.indexOf("/", s);
  return url.slice(s, e === -1 ? url.length : e);
}
