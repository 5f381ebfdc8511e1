/**
 * The key a rate limit counts a client address under. An IPv6 subscriber is given a whole /64
 * (often a /56 or more) and may use any address in it, so counting per address would hand it
 * 2^64 fresh budgets: IPv6 is counted per /64, or per /56 where the unit is a whole site (sign-ups,
 * mails). IPv4 is counted per address, and an IPv4-mapped IPv6 address (::ffff:a.b.c.d, how a
 * dual-stack socket reports an IPv4 peer) as that IPv4 address. Anything that is not an IP
 * literal ("unknown") is kept as it is. Every limiter keyed by a client address goes through it.
 */
import { canonicalIp } from "./ip.ts";

type V6Prefix = 64 | 56;

export function limitKey(ip: string, v6Prefix: V6Prefix = 64): string {
  const c = canonicalIp(ip);
  if (!c) return ip;
  const b = c.bytes;
  if (c.v === 4) return b.join(".");
  const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  if (mapped) return b.slice(12).join(".");
  const kept = b.map((x, i) => (i < v6Prefix / 8 ? x : 0));
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((kept[i] << 8) | kept[i + 1]).toString(16));
  return `${groups.join(":")}::/${v6Prefix}`;
}
