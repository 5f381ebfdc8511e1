import { assert, assertEquals } from "../../tests/assert.ts";
import { networkHash, networkOf, visitorHash } from "./visitor.ts";

Deno.test("networkOf(): an IPv4 address, or an IPv6 /64 however it is written", () => {
  assertEquals(networkOf("203.0.113.7"), "203.0.113.7");
  assertEquals(networkOf("::ffff:203.0.113.7"), "203.0.113.7");
  assertEquals(networkOf("2001:DB8:0:1:aaaa::1"), "2001:db8:0:1");
  assertEquals(networkOf("2001:0db8:0000:0001:ffff:ffff:ffff:ffff"), "2001:db8:0:1");
  assertEquals(networkOf("2001:db8::1"), "2001:db8:0:0");
  assertEquals(networkOf("2001:db8:0:0::1%eth0"), "2001:db8:0:0");
  assertEquals(networkOf("::1"), "0:0:0:0");
  assertEquals(networkHash("2001:db8:0:1::5"), networkHash("2001:db8:0:1:ffff::9"));
  assert(networkHash("2001:db8:0:1::5") !== networkHash("2001:db8:0:2::5"));
});

Deno.test("visitorHash() depends on experiment, address and agent", () => {
  const base = visitorHash("1", "10.0.0.1", "ua");
  assert(base !== visitorHash("2", "10.0.0.1", "ua"));
  assert(base !== visitorHash("1", "10.0.0.2", "ua"));
  assert(base !== visitorHash("1", "10.0.0.1", "ub"));
  assertEquals(base, visitorHash("1", "10.0.0.1", "ua"));
});
