import { assertEquals } from "../../tests/assert.ts";
import { clientIp, strictIp } from "./client_ip.ts";

const conn: Deno.Addr = { transport: "tcp", hostname: "10.0.0.9", port: 1 };
const req = (xff?: string) =>
  new Request("http://app.test/", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });
const one = { header: "x-forwarded-for", hops: 1 };

Deno.test("clientIp() takes the entry the trusted hops added, never a forged leftmost one", () => {
  assertEquals(clientIp(req("6.6.6.6, 203.0.113.7"), conn, one), "203.0.113.7");
  assertEquals(clientIp(req("203.0.113.7"), conn, one), "203.0.113.7");
  const two = { header: "x-forwarded-for", hops: 2 };
  assertEquals(clientIp(req("6.6.6.6, 203.0.113.7, 10.0.0.2"), conn, two), "203.0.113.7");
  assertEquals(clientIp(req("2001:db8::1"), conn, one), "2001:db8::1");
});

Deno.test("clientIp() falls back to the connection when the entry is missing or not an IP", () => {
  assertEquals(clientIp(req("203.0.113.7"), conn, null), "10.0.0.9", "no trusted proxy");
  assertEquals(clientIp(req(), conn, one), "10.0.0.9", "no header");
  assertEquals(
    clientIp(req("203.0.113.7"), conn, { header: "x-forwarded-for", hops: 2 }),
    "10.0.0.9",
  );
  for (const bad of ["evil", "1.2.3.4.5", "0x7f.1", "203.0.113.7:80", "", "a".repeat(80)]) {
    assertEquals(clientIp(req(`1.1.1.1, ${bad}`), conn, one), "10.0.0.9", bad);
  }
});

Deno.test("strictIp() accepts dotted quads and IPv6 literals only", () => {
  assertEquals(strictIp("192.0.2.1"), "192.0.2.1");
  assertEquals(strictIp("[2001:DB8::1]"), "2001:db8::1");
  assertEquals(strictIp("256.1.1.1"), null);
  assertEquals(strictIp("017700000001"), null);
  assertEquals(strictIp("::ffff:zz"), null);
});
