/**
 * Who a visitor is, for assignment and guardrails: a 32-bit hash of the experiment id,
 * client IP and user agent (SPEC: assignment by IP plus user agent, salted with the
 * experiment id), and the hash of the network the IP belongs to (an IPv4 address, an
 * IPv6 /64), so guardrails can count at most a few visitors per network. Pure and cheap:
 * the edge calls it on the hot path, the event ingest on each conversion.
 */

/** Longest user agent hashed; longer ones are cut (deterministically) to bound the work. */
const MAX_UA_CHARS = 512;

/**
 * FNV-1a over `${experimentId}:${ip}:${ua}` (UTF-16 code units), then murmur3's fmix32
 * finaliser: FNV alone mixes the last characters poorly into the high bits, and the
 * bucket is taken from the high bits.
 */
export function visitorHash(experimentId: string, ip: string, ua: string): number {
  let h = 0x811c9dc5;
  h = fnv(h, experimentId, experimentId.length);
  h = Math.imul(h ^ 58, 0x01000193); // ":"
  h = fnv(h, ip, ip.length);
  h = Math.imul(h ^ 58, 0x01000193);
  h = fnv(h, ua, Math.min(ua.length, MAX_UA_CHARS));
  return fmix(h);
}

/** The hash of the client's network: the IPv4 address, or the /64 of an IPv6 one. */
export function networkHash(ip: string): number {
  const n = networkOf(ip);
  return fmix(fnv(0x811c9dc5, n, Math.min(n.length, 64)));
}

/** An IPv6 address's first four groups, normalised (case, leading zeros, `::`). */
export function networkOf(ip: string): string {
  const zone = ip.indexOf("%");
  const a = (zone < 0 ? ip : ip.slice(0, zone)).toLowerCase();
  if (!a.includes(":")) return a;
  // IPv4-mapped or -compatible (::ffff:1.2.3.4): the IPv4 address is the network.
  if (a.includes(".")) return a.slice(a.lastIndexOf(":") + 1);
  const [l, r] = a.split("::", 2);
  const left = l ? l.split(":") : [];
  const right = r === undefined ? [] : r ? r.split(":") : [];
  const zeros = r === undefined ? 0 : Math.max(0, 8 - left.length - right.length);
  const groups = [...left, ...new Array<string>(zeros).fill("0"), ...right].slice(0, 4);
  return groups.map((g) => g.replace(/^0+(?=.)/, "")).join(":");
}

function fnv(h: number, s: string, n: number): number {
  for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
