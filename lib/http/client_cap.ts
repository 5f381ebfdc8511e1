/**
 * A cap on the requests one client address may have waiting at once, where the
 * runtime allows it. Deno.serve gives no hook before a request's headers are
 * complete, but a request that trickles its body, or many slow misses from one address,
 * do reach here: past `limit` pending answers from one public address, the next is answered
 * 429 at once with `connection: close`, and what its handler does meanwhile is dropped.
 * A synchronous answer (a cache hit) is never counted. Private and loopback addresses (a
 * load balancer or proxy of your own whose forwarding header is not configured) are exempt,
 * so a missing TRUSTED_PROXY_IP_HEADER never caps all traffic as one client. Memory: one
 * map entry per address (IPv6: per /64) with a request pending, removed when its last one answers.
 */
import type { Handler } from "./host_router.ts";
import { clientIp, type TrustedProxies } from "./client_ip.ts";
import { isPublicIp } from "../net/ip.ts";
import { limitKey } from "../net/limit_key.ts";
import { tooManyRequests } from "../errors.ts";

export type ClientCapOptions = { limit: number; trusted: TrustedProxies };

function tooMany(limit: number): Response {
  const r = tooManyRequests(
    1,
    `Too many requests from this address are still open (at most ${limit} at once)`,
  ).toResponse();
  r.headers.set("connection", "close");
  return r;
}

export function capPendingPerClient(handler: Handler, o: ClientCapOptions): Handler {
  const pending = new Map<string, number>();
  return (req, info) => {
    const answer = handler(req, info);
    if (answer instanceof Response) return answer;
    const addr = clientIp(req, info?.remoteAddr, o.trusted);
    if (!isPublicIp(addr)) return answer;
    const ip = limitKey(addr); // one IPv6 client is its /64
    const n = pending.get(ip) ?? 0;
    if (n >= o.limit) {
      answer.then((r) => r.body?.cancel().catch(() => {}), () => {});
      return tooMany(o.limit);
    }
    pending.set(ip, n + 1);
    const done = () => {
      const left = (pending.get(ip) ?? 1) - 1;
      if (left <= 0) pending.delete(ip);
      else pending.set(ip, left);
    };
    return answer.finally(done);
  };
}
