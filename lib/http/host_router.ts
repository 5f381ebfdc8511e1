/**
 * The request handler's first step: routes on the Host header. Tenant hosts, tenant preview
 * hosts and active custom domains go to the edge; every other host goes to `other` (the
 * management app: API and dashboard). Nothing of the management app is imported here, so
 * main.ts can serve the edge before that app has loaded (cold start, edge/boot.ts).
 */
import type { Config } from "../config.ts";
import type { Edge, RequestInfo } from "../../edge/types.ts";
import { classifyHost, type HostClass } from "../base/host.ts";
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
  const hosts = new HostMemo(config.proxyDomain);
  // Not async: a cache hit at the edge goes straight through without another promise.
  // Every answer passes the header-value guard (lib/http/response_guard.ts) on its way out.
  return (req, info) => {
    const host = hosts.classify(requestHost(req));
    if (host === null) return badHost();
    const reqInfo = new LazyRequestInfo(req, info, trusted);
    if (host.kind !== "other") {
      const res = edge.handle(req, { surface: host.kind, slug: host.slug }, reqInfo);
      return res instanceof Response ? guardResponse(res) : res.then(guardResponse);
    }
    return routeOther(host.hostname, req, reqInfo).then(guardResponse);
  };

  async function routeOther(hostname: string, req: Request, reqInfo: LazyRequestInfo) {
    if (hostname !== appHost && hostname !== "" && await edge.resolveDomain(hostname)) {
      return edge.handle(req, { surface: "domain", hostname }, reqInfo);
    }
    return await other(req, reqInfo.clientIp);
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
 * classifyHost() memoised per Host header value (bounded); null for a Host that is not a
 * URL authority (`a b`, `[::1`, `a%0Bb`): Deno.serve hands it on in `req.url`, which then
 * no URL parser takes, and every such request was a 500 with a logged stack.
 */
class HostMemo {
  private memo = new Map<string, HostClass | null>();
  constructor(private proxyDomain: string) {}
  classify(host: string): HostClass | null {
    let c = this.memo.get(host);
    if (c === undefined) {
      c = host === "" || URL.canParse(`http://${host}/`)
        ? classifyHost(host, this.proxyDomain)
        : null;
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
