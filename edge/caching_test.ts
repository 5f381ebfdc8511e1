import { assertEquals } from "../tests/assert.ts";
import { cachingRules, forwardedEncoding, safeValue } from "./caching.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";

Deno.test("forwardedEncoding() keeps the codings the clients decode, in a fixed order", () => {
  assertEquals(forwardedEncoding("br, gzip, zstd"), "gzip, br");
  assertEquals(forwardedEncoding("gzip;q=0, deflate;q=0.5, BR"), "deflate, br");
  assertEquals(forwardedEncoding("gzipx, *"), "");
  assertEquals(forwardedEncoding(null), "");
});

Deno.test("safeValue() forwards printable values of at most 1,000 characters", () => {
  assertEquals(safeValue(" image/avif,*/* "), "image/avif,*/*");
  assertEquals(safeValue("a\u00e9"), null);
  assertEquals(safeValue("x".repeat(1001)), null);
  assertEquals(safeValue("  "), null);
});

Deno.test("cachingRules(): a snapshot without settings is fixed with a 60 s window; the API is always fixed", () => {
  const old = { tenantId: 1 } as EdgeSnapshot;
  assertEquals(cachingRules(old, "site"), {
    origin: false,
    swrMs: 60_000,
    ignoreSetCookie: false,
    staleWhenOriginSilent: false,
  });
  const origin = {
    tenantId: 1,
    caching: { cacheMode: "origin", staleWhileRevalidate: 0, ignoreSetCookie: true },
  } as EdgeSnapshot;
  assertEquals(cachingRules(origin, "assets"), {
    origin: true,
    swrMs: 0,
    ignoreSetCookie: true,
    staleWhenOriginSilent: false,
  });
  assertEquals(cachingRules(origin, "api").origin, false);
});
