import { assertEquals } from "../tests/assert.ts";
import { envProxyUrl } from "./tenant_origin.ts";

Deno.test("envProxyUrl() reads the framework's public names where the plain one is unset", () => {
  const g = globalThis as { __NUXT__?: unknown };
  assertEquals(Deno.env.get("CACHELY_PROXY_URL"), undefined);
  try {
    Deno.env.set("NEXT_PUBLIC_CACHELY_PROXY_URL", " http://next.localhost:8000 ");
    assertEquals(envProxyUrl(), "http://next.localhost:8000");
    Deno.env.delete("NEXT_PUBLIC_CACHELY_PROXY_URL");
    // Nuxt in the browser: runtimeConfig.public, serialised into window.__NUXT__.config
    g.__NUXT__ = { config: { public: { cachelyProxyUrl: "http://nuxt.localhost:8000" } } };
    assertEquals(envProxyUrl(), "http://nuxt.localhost:8000");
    delete g.__NUXT__;
    Deno.env.set("VITE_CACHELY_PROXY_URL", "http://vite.localhost:8000");
    assertEquals(envProxyUrl(), "http://vite.localhost:8000");
    Deno.env.set("CACHELY_PROXY_URL", "http://plain.localhost:8000");
    assertEquals(envProxyUrl(), "http://plain.localhost:8000", "the plain name wins");
  } finally {
    for (const k of ["NEXT_PUBLIC_", "VITE_", ""]) Deno.env.delete(`${k}CACHELY_PROXY_URL`);
    delete g.__NUXT__;
  }
});
