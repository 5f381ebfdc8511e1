/**
 * Table test of the IP classifier against corpora/private-ip-classification.json
 * (frenchbread/private-ip). Every "private" entry must be refused; every "public"
 * entry must be allowed, except the few we block on purpose (listed with reasons).
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { canonicalIp, isPublicIp } from "./ip.ts";

const corpus = JSON.parse(
  Deno.readTextFileSync(
    new URL("../../tests/fixtures/corpora/private-ip-classification.json", import.meta.url),
  ),
) as { public: string[]; private: string[] };

/** Corpus "public" entries we refuse deliberately: stricter than the corpus, never looser. */
const DELIBERATELY_BLOCKED: Record<string, string> = {
  "226.84.185.150": "224.0.0.0/4 is multicast, never a unicast upstream",
  "227.202.96.196": "224.0.0.0/4 is multicast, never a unicast upstream",
  "2001:2:ffff:ffff:ffff:ffff:ffff:ffff": "2001::/23 IETF protocol assignments, blocked whole",
  "2001:10::": "2001::/23 IETF protocol assignments (ORCHID), blocked whole",
  "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff": "2001::/23 IETF protocol assignments, blocked whole",
  "fec0::": "deprecated site-local fec0::/10 is blocked (corpora/README)",
};

Deno.test("isPublicIp() refuses every private entry of the corpus", () => {
  assert(corpus.private.length > 100, "corpus loaded");
  const leaked = corpus.private.filter((ip) => isPublicIp(ip));
  assertEquals(leaked, []);
});

Deno.test("isPublicIp() allows every public entry of the corpus except the documented ones", () => {
  const wrong = corpus.public.filter((ip) => isPublicIp(ip) === (ip in DELIBERATELY_BLOCKED));
  assertEquals(wrong, []);
});

Deno.test("isPublicIp() refuses the special-purpose blocks the corpus does not cover", () => {
  for (
    const ip of [
      "3fff::1", // documentation, RFC 9637
      "5f00::1", // SRv6 SIDs, RFC 9602
      "64:ff9b:1::1", // local-use NAT64
      "::ffff:7f00:1", // IPv4-mapped loopback in hex
      "2002:a9fe:a9fe::1", // 6to4 embedding 169.254.169.254
      "fe80::1%eth0", // zone identifier
      "[::1]",
    ]
  ) assertEquals(isPublicIp(ip), false, ip);
  for (const ip of ["93.184.215.14", "2606:4700::1111", "2002:5db8:d70e::1"]) {
    assertEquals(isPublicIp(ip), true, ip);
  }
});

Deno.test("canonicalIp() reads the legacy IPv4 forms the URL parser accepts", () => {
  for (const form of ["0x7f.1", "017700000001", "2130706433", "127.1", "0177.0.0.1"]) {
    assertEquals(canonicalIp(form), { v: 4, bytes: [127, 0, 0, 1] }, form);
  }
  assertEquals(canonicalIp("example.com"), null);
  assertEquals(canonicalIp("::ffff:0.0.255.255.255"), null, "malformed is not an IP");
  assertEquals(isPublicIp("::ffff:0.0.255.255.255"), false, "and is never public");
});
