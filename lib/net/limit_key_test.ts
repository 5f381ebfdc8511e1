import { assertEquals } from "../../tests/assert.ts";
import { limitKey } from "./limit_key.ts";

Deno.test("limitKey(): IPv4 as is, IPv6 per /64 or /56, IPv4-mapped as IPv4", () => {
  assertEquals(limitKey("203.0.113.7"), "203.0.113.7");
  assertEquals(limitKey("2001:db8:5:6::1"), "2001:db8:5:6::/64");
  assertEquals(limitKey("2001:DB8:5:6:ffff:1:2:3"), "2001:db8:5:6::/64");
  assertEquals(limitKey("[2001:db8:5:6::9]"), "2001:db8:5:6::/64");
  assertEquals(limitKey("2001:db8:5:7::1"), "2001:db8:5:7::/64");
  assertEquals(limitKey("2001:db8:7:11ab::1", 56), "2001:db8:7:1100::/56");
  assertEquals(limitKey("2001:db8:7:11ff:1::", 56), "2001:db8:7:1100::/56");
  assertEquals(limitKey("2001:db8:7:12ab::1", 56), "2001:db8:7:1200::/56");
  assertEquals(limitKey("::ffff:198.51.100.7"), "198.51.100.7");
  assertEquals(limitKey("::ffff:c633:6407", 56), "198.51.100.7");
  assertEquals(limitKey("fe80::1%eth0"), "fe80:0:0:0::/64");
  assertEquals(limitKey("unknown"), "unknown");
});
