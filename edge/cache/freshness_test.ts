import { assertEquals } from "../../tests/assert.ts";
import { directives, MAX_SECONDS, originFreshness, upstreamAgeMs, varyOf } from "./freshness.ts";

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

Deno.test("varyOf() keeps the forwarded names only; anything else or * is null", () => {
  assertEquals(
    varyOf([["vary", "Accept-Encoding, accept"], ["vary", "Accept"]]),
    "accept,accept-encoding",
  );
  assertEquals(varyOf([]), "");
  assertEquals(varyOf([["vary", "*"]]), null);
  assertEquals(varyOf([["vary", "Accept, Cookie"]]), null);
});
