/**
 * The request handler's first step: routes on the Host header. Tenant hosts, tenant preview
 * hosts and active custom domains go to the edge; every other host goes to `other` (the
 * management app: API and dashboard). Nothing of the management app is imported here, so
 * main.ts can serve the edge before that app has loaded (cold start, edge/boot.ts).
 */
import type { Config } from "../config.ts";
import type { Edge, EdgeTarget, RequestInfo } from "../../edge/types.ts";
import { classifyHost } from "../base/host.ts";
import { clientIp, type TrustedProxies } from "./client_ip.ts";
import { guardResponse } from "./response_guard.ts";
import { ApiError } from "../errors.ts";

/** Returns a Response directly for an edge hit (no promise), else a promise of one. */
export type Handler = (
  req: Request,
  info?: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

/** A handler for the hosts that are not the edge's, given the request's client IP. */
export type OtherHosts = (req: Request, clientIp: string) => Promise<Response>;

export function routeByHost(config: Config, edge: Edge, other: OtherHosts): Handler {
  const appHost = new URL(config.publicUrl).hostname;
  const trusted = config.trustedProxies;
  const hosts = new HostMemo(config.proxyDomain, appHost);
  // Not async: a cache hit at the edge goes straight through without another promise.
  // Every answer passes the header-value guard (lib/http/response_guard.ts) on its way out.
  return (req, info) => {
    const target = hosts.route(requestHost(req));
    if (target === undefined) return badHost();
    const reqInfo = new LazyRequestInfo(req, info, trusted);
    const res = target === null
      ? other(req, reqInfo.clientIp)
      : target.surface !== "domain"
      ? edge.handle(req, target, reqInfo)
      : customDomain(target, req, reqInfo);
    return res instanceof Response ? guardResponse(res) : res.then(guardResponse);
  };

  /**
   * A host that may be a tenant's custom domain: the edge's when it is one (the edge memoises
   * the answer for EDGE_SNAPSHOT_TTL_MS and forgets it on a domain change, edge/snapshots.ts),
   * known without a promise while memoised.
   */
  function customDomain(
    target: EdgeTarget & { surface: "domain" },
    req: Request,
    reqInfo: LazyRequestInfo,
  ): Response | Promise<Response> {
    const slug = edge.resolveDomain(target.hostname);
    const route = (slug: string | null) =>
      slug ? edge.handle(req, target, reqInfo) : other(req, reqInfo.clientIp);
    return slug instanceof Promise ? slug.then(route) : route(slug);
  }
}

/** 400 for a Host header that is not a host (no log: a client's mistake, not ours). */
function badHost(): Response {
  const message = "Invalid Host header: not a host name or address";
  return new ApiError(400, "bad_request", message, { fields: [{ path: "host", message }] }, {
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  }).toResponse();
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

/**
 * Where a Host header value goes, memoised per value (bounded): the edge target, built once
 * and handed to every request of that host; null for the management app's host (or none);
 * undefined for a Host that is not a URL authority (`a b`, `[::1`, `a%0Bb`): Deno.serve hands
 * it on in `req.url`, which then no URL parser takes, and every such request was a 500 with a
 * logged stack. It depends only on the process's configuration (proxy domain, public URL);
 * which tenant a custom domain belongs to is the edge's to say, per request (customDomain).
 */
class HostMemo {
  private memo = new Map<string, EdgeTarget | null | false>();
  constructor(private proxyDomain: string, private appHost: string) {}
  route(host: string): EdgeTarget | null | undefined {
    let t = this.memo.get(host);
    if (t === undefined) {
      t = host === "" || URL.canParse(`http://${host}/`) ? this.targetOf(host) : false;
      if (this.memo.size >= 10_000) this.memo.clear();
      this.memo.set(host, t);
    }
    return t === false ? undefined : t;
  }

  private targetOf(host: string): EdgeTarget | null {
    const c = classifyHost(host, this.proxyDomain);
    if (c.kind !== "other") return { surface: c.kind, slug: c.slug };
    const hostname = c.hostname;
    return hostname === this.appHost || hostname === "" ? null : { surface: "domain", hostname };
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
