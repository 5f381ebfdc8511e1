/**
 * Classifies IP literals as public or not. Anything that is loopback, private,
 * link-local, shared, reserved, documentation, multicast, metadata, NAT64, or an IPv6
 * form embedding one of those (mapped, 6to4, Teredo) is non-public.
 * Unparseable input is non-public too: never connect to what we cannot classify.
 */

/** Parses an IPv4 or IPv6 literal through the WHATWG URL host parser (handles 0x7f.1, 017700000001, ...). */
export function canonicalIp(
  input: string,
): { v: 4; bytes: number[] } | { v: 6; bytes: number[] } | null {
  let s = input.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (s === "") return null;
  let host: string;
  try {
    host = new URL(`http://${s.includes(":") ? `[${s}]` : s}/`).hostname;
  } catch {
    return null;
  }
  if (host.startsWith("[")) return { v: 6, bytes: parseV6(host.slice(1, -1)) };
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null; // a name, not an IP literal
  }
  return { v: 4, bytes: parts.map(Number) };
}

function parseV6(h: string): number[] {
  // URL serialisation gives the canonical compressed form without embedded IPv4.
  const [head, tail] = h.includes("::") ? h.split("::") : [h, undefined];
  const a = head ? head.split(":") : [];
  const b = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const groups = tail === undefined ? a : [...a, ...Array(8 - a.length - b.length).fill("0"), ...b];
  const bytes: number[] = [];
  for (const g of groups) {
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

const V4_BLOCKED: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8], // "this" network
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // shared address space (CGNAT)
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 31, 196, 0], 24], // AS112-v4 (RFC 7535)
  [[192, 52, 193, 0], 24], // AMT (RFC 7450)
  [[192, 88, 99, 0], 24], // deprecated 6to4 relay anycast
  [[192, 168, 0, 0], 16],
  [[192, 175, 48, 0], 24], // direct delegation AS112 (RFC 7534)
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

const V6_BLOCKED: Array<[number[], number]> = [
  [[0, 0], 96], // ::/96 unspecified, loopback, IPv4-compatible
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // 100::/64 discard
  // NAT64 64:ff9b::/96 is blocked whole (corpus private-ip-classification.json): a translated
  // address reaches whatever IPv4 host the local NAT64 gateway picks, which we cannot vet.
  [[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96],
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48], // local-use NAT64 (RFC 8215)
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation (RFC 9637)
  [[0x5f, 0x00], 16], // SRv6 SIDs (RFC 9602), not globally reachable
  [[0x20, 0x01, 0x00, 0x00], 23], // IETF protocol assignments (incl. Teredo)
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // deprecated site-local: blocked (corpora/README)
  [[0xff], 8], // multicast
];

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Public(b: number[]): boolean {
  return !V4_BLOCKED.some(([p, bits]) => inPrefix(b, p, bits));
}

/** True only for a parseable, globally routable unicast address. */
export function isPublicIp(input: string): boolean {
  const ip = canonicalIp(input);
  if (!ip) return false;
  if (ip.v === 4) return v4Public(ip.bytes);
  const b = ip.bytes;
  if (V6_BLOCKED.some(([p, bits]) => inPrefix(b, p, bits))) return false;
  // IPv4-mapped ::ffff:0:0/96 carries an IPv4 address in the last 32 bits.
  if (inPrefix(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return v4Public(b.slice(12));
  // 6to4 2002::/16 embeds an IPv4 address in bytes 2..5.
  if (inPrefix(b, [0x20, 0x02], 16)) return v4Public(b.slice(2, 6));
  return true;
}

export function isIpLiteral(host: string): boolean {
  return canonicalIp(host) !== null;
}
