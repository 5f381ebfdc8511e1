/**
 * The client's IP. Without trusted proxies it is the connection's address. Behind
 * TRUSTED_PROXY_HOPS proxies, each of which appends the address it saw to
 * TRUSTED_PROXY_IP_HEADER (X-Forwarded-For by default), the client is the entry that
 * many places from the right: everything further left was sent by the client and
 * can be forged. An entry that is missing or not an IP address falls back to the
 * connection's address (docs/decisions.md "Log-in limits").
 */
import { canonicalIp } from "../net/ip.ts";

export type TrustedProxies = { header: string; hops: number } | null;

export function clientIp(
  req: Request,
  remoteAddr: Deno.Addr | undefined,
  trusted: TrustedProxies,
): string {
  if (trusted && trusted.hops > 0) {
    const v = req.headers.get(trusted.header);
    if (v) {
      const entries = v.split(",");
      const candidate = entries.length >= trusted.hops
        ? entries[entries.length - trusted.hops].trim()
        : "";
      const ip = strictIp(candidate);
      if (ip) return ip;
    }
  }
  if (remoteAddr && "hostname" in remoteAddr) return remoteAddr.hostname;
  return "unknown";
}

const V4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A plain dotted-quad IPv4 or an IPv6 literal (brackets allowed), lower-cased; else null. */
export function strictIp(raw: string): string | null {
  if (raw.length === 0 || raw.length > 64) return null;
  if (V4.test(raw)) return raw;
  const bare = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  if (!/^[0-9a-fA-F:.]+$/.test(bare) || !bare.includes(":")) return null;
  return canonicalIp(bare)?.v === 6 ? bare.toLowerCase() : null;
}
