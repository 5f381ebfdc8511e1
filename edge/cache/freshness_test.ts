import { assertEquals } from "../../tests/assert.ts";
import {
  directives,
  httpDate,
  MAX_SECONDS,
  originFreshness,
  upstreamAgeMs,
  varyOf,
} from "./freshness.ts";

const NOW = Date.UTC(2026, 10, 22, 12);
const cc = (v: string): [string, string][] => [["cache-control", v]];

Deno.test("originFreshness() reads s-maxage over max-age, and s-maxage forbids stale copies", () => {
  const f = originFreshness(cc("max-age=600, s-maxage=5"), NOW);
  assertEquals([f.lifetimeMs, f.noStale, f.storable], [5_000, true, true]);
  assertEquals(originFreshness(cc("public, max-age=60"), NOW).noStale, false);
});

Deno.test("originFreshness() treats a directive given twice with two values as stale", () => {
  assertEquals(originFreshness(cc("max-age=10, max-age=20"), NOW).lifetimeMs, 0);
  assertEquals(originFreshness([...cc("max-age=10"), ...cc("max-age=10")], NOW).lifetimeMs, 10_000);
  assertEquals(directives(cc("max-age=1, Max-Age=2")).get("max-age"), undefined);
});

Deno.test("originFreshness() clamps absurd numbers and ignores garbage", () => {
  const f = originFreshness(
    [
      ...cc('max-age="99999999999999999999", stale-if-error=-1, stale-while-revalidate=1e9'),
      ["age", "-3"],
    ],
    NOW,
  );
  assertEquals([f.lifetimeMs, f.sieMs, f.swrMs, f.ageMs], [MAX_SECONDS * 1000, 0, 0, 0]);
  assertEquals(originFreshness(cc("max-age=99999999999"), NOW).lifetimeMs, MAX_SECONDS * 1000);
  assertEquals(originFreshness(cc("stale-if-error=99999999"), NOW).sieMs, 86_400_000);
  assertEquals(upstreamAgeMs([["age", "7, 9"]]), 7_000);
  assertEquals(upstreamAgeMs([["age", "x"]]), 0);
});

Deno.test("originFreshness(): Expires, the Last-Modified heuristic, and nothing", () => {
  const exp = new Date(NOW + 30_000).toUTCString();
  assertEquals(originFreshness([["expires", exp]], NOW).lifetimeMs, 30_000);
  assertEquals(originFreshness([["expires", "0"]], NOW).lifetimeMs, 0);
  const lm = new Date(NOW - 1_000_000).toUTCString();
  assertEquals(originFreshness([["last-modified", lm]], NOW).lifetimeMs, 100_000);
  const none = originFreshness([], NOW);
  assertEquals([none.lifetimeMs, none.hasLifetime], [0, false]);
  const nc = originFreshness(cc("no-cache, max-age=600"), NOW);
  assertEquals([nc.lifetimeMs, nc.noCache, nc.noStale], [0, true, true]);
  assertEquals(originFreshness(cc("private"), NOW).storable, false);
  assertEquals(originFreshness(cc("no-store"), NOW).storable, false);
});

Deno.test("varyOf() keeps the forwarded names only, ignores the others; * is null", () => {
  assertEquals(
    varyOf([["vary", "Accept-Encoding, accept"], ["vary", "Accept"]]),
    "accept,accept-encoding",
  );
  assertEquals(varyOf([]), "");
  assertEquals(varyOf([["vary", "*"]]), null);
  assertEquals(varyOf([["vary", "Accept, Cookie"]]), "accept");
  assertEquals(varyOf([["vary", "Origin"], ["vary", "User-Agent"]]), "");
});

Deno.test("httpDate() reads the three HTTP-date forms and nothing else", () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37);
  assertEquals(httpDate("Sun, 06 Nov 1994 08:49:37 GMT"), t);
  assertEquals(httpDate("Sunday, 06-Nov-94 08:49:37 GMT"), t);
  assertEquals(httpDate("Sun Nov  6 08:49:37 1994"), t);
  // letter case aside
  assertEquals(httpDate("SUN, 06 NOV 1994 08:49:37 gmt"), t);
  assertEquals(httpDate("sunday, 06-nov-94 08:49:37 GMT"), t);
  for (
    const bad of [
      "0",
      "-1",
      "2099-01-01",
      "Thu Jan 01 2099 00:00:00",
      "Sun, 31 Feb 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 25:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37 PST",
      "Thu, 18 Aug 2050 02:01:18 UTC",
      "Thu, 18-Aug-2050 02:01:18 GMT",
      "Thu, 18 Aug 2050 2:01:18 GMT",
      "",
    ]
  ) {
    assertEquals(httpDate(bad), null, bad);
  }
});

Deno.test("originFreshness(): Expires and Last-Modified count from the origin's Date", () => {
  const date = new Date(NOW + 3_600_000).toUTCString(); // the origin's clock an hour ahead
  const exp = new Date(NOW + 3_630_000).toUTCString();
  assertEquals(originFreshness([["date", date], ["expires", exp]], NOW).lifetimeMs, 30_000);
  assertEquals(originFreshness([["expires", "2099-01-01"]], NOW).lifetimeMs, 0);
  const lm = new Date(NOW + 3_600_000 - 1_000_000).toUTCString();
  assertEquals(originFreshness([["date", date], ["last-modified", lm]], NOW).lifetimeMs, 100_000);
});

Deno.test("originFreshness(): CDN-Cache-Control, then Cachely's own field, govern over Cache-Control", () => {
  const cdn = (v: string): [string, string] => ["cdn-cache-control", v];
  const own = (v: string): [string, string] => ["cachely-cdn-cache-control", v];
  assertEquals(originFreshness([...cc("max-age=600"), cdn("max-age=5")], NOW).lifetimeMs, 5_000);
  assertEquals(originFreshness([...cc("no-store"), cdn("max-age=5")], NOW).storable, true);
  assertEquals(originFreshness([...cc("max-age=600"), cdn("private")], NOW).refusal, "private");
  const f = originFreshness([...cc("max-age=600"), cdn("no-store"), own("max-age=60")], NOW);
  assertEquals([f.storable, f.lifetimeMs], [true, 60_000]);
  const sc = originFreshness([...cc("max-age=600"), ["surrogate-control", "no-store"]], NOW);
  assertEquals(sc.refusal, "no-store");
});
