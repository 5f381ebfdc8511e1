/**
 * Cachely for the benchmark: the real bootstrap (PGlite under a temporary data
 * dir unless BENCH_DATABASE_URL is set, in-memory KV), one user with a personal
 * access token, and tenant `bench` whose API origin is the benchmark origin.
 *
 * With BENCH_DATABASE_URL (a PostgreSQL server) it creates a fresh database there and
 * drops it on exit, so runs never collide.
 *
 * Run: ORIGIN=http://127.0.0.1:N deno run -A bench/cachely_server.ts
 *   → prints {"ready":true,"port":N,"slug":"bench","host":"bench.localhost:N","token":"cly_pat_…",
 *   "control":"http://127.0.0.1:M"}
 * The control port answers POST /clear (empties the edge cache), POST /trim (glibc malloc_trim)
 * and GET /memory with the process's memory after a full GC (when run with
 * --v8-flags=--expose-gc), V8's committed bytes per heap space, glibc's mallinfo2, and the edge
 * cache's entry count and bytes. Extra environment (e.g. from scenarios) is passed through to
 * lib/config.ts.
 */
import { loadConfig } from "../lib/config.ts";
import { upsertBilling } from "../lib/billing/state.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { createUser } from "../lib/users/mod.ts";
import { createPersonalToken } from "../lib/auth/tokens.ts";
import { createTenant } from "../lib/tenants/service.ts";
import type { EdgeCache } from "../edge/cache/store.ts";
import postgres from "postgres";
import v8 from "node:v8";

/** A fresh database on the PostgreSQL server of `base`, dropped by drop(). */
async function benchDatabase(base: string | undefined) {
  if (!base) return null;
  const name = `cachely_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(base, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

const origin = Deno.env.get("ORIGIN");
if (!origin) throw new Error("ORIGIN is required");

// Bind first, so PROXY_DOMAIN can carry the real port.
const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
listener.close();

const dataDir = await Deno.makeTempDir({ prefix: "cachely-bench-" });
const db = await benchDatabase(Deno.env.get("BENCH_DATABASE_URL"));
const config = loadConfig({
  ...Deno.env.toObject(),
  PORT: String(port),
  HOST: "127.0.0.1",
  PUBLIC_URL: `http://localhost:${port}`,
  PROXY_DOMAIN: `localhost:${port}`,
  DATA_DIR: dataDir,
  DATABASE_URL: db?.url,
  KV_PATH: ":memory:",
  ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
  ALLOW_PRIVATE_UPSTREAMS: "true",
  IMAGE_HOST_ASSET_ORIGIN: origin,
  // The free plan's monthly quota would pause the bench tenants within seconds (429).
  QUOTAS: Deno.env.get("QUOTAS") ?? "off",
  LOG_LEVEL: Deno.env.get("LOG_LEVEL") ?? "warn",
});
const app = await bootstrap(config);
const user = await createUser(app.services, "bench@example.com", "bench password 123");
const pat = await createPersonalToken(app.services, user.id, {
  name: "bench",
  scopes: ["read", "write", "admin"],
  expiresAt: null,
});
// Pro: several tenants, and traffic past the included amounts is metered, never paused; the
// edge's quota check still runs on every request (QUOTAS is on unless the environment says off).
await upsertBilling(app.services, user.id, { planCode: "pro", adminOverride: true });
await createTenant(app.services, user.id, {
  slug: "bench",
  cms: "generic",
  apiOrigin: origin,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
});
// One owner per tenant: the free plan allows one tenant per user.
const second = await createUser(app.services, "bench-img@example.com", "bench password 123");
const third = await createUser(app.services, "bench-cdn@example.com", "bench password 123");
// The image host tenant: /video/upload/… goes to <origin>/bench/video/upload/… (large objects).
await createTenant(app.services, second.id, {
  slug: "benchimg",
  cms: "cloudinary",
  cloudName: "bench",
  apiKey: "bench",
  apiSecret: "bench",
});
// CDN offload on: what the CDN stand-in (nginx in front) caches.
await createTenant(app.services, third.id, {
  slug: "benchcdn",
  cms: "generic",
  apiOrigin: origin,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
  cdnOffload: true,
});
const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, app.handler);
const cache = (app.edge as unknown as { cache: EdgeCache }).cache;
/** glibc's own view of its heap (mallinfo2) and malloc_trim, through FFI when available. */
const libc = (() => {
  try {
    return Deno.dlopen("libc.so.6", {
      mallinfo2: { parameters: [], result: { struct: Array(10).fill("usize") } },
      malloc_trim: { parameters: ["usize"], result: "i32" },
    }).symbols;
  } catch {
    return null;
  }
})();
function mallinfo() {
  if (!libc) return null;
  const v = new BigUint64Array((libc.mallinfo2() as Uint8Array).slice().buffer);
  // arena: bytes from brk; hblkhd: mmapped; uordblks: in use; fordblks: free; keepcost: trimmable top
  return {
    arena: Number(v[0]),
    hblkhd: Number(v[4]),
    inUse: Number(v[7]),
    free: Number(v[8]),
    top: Number(v[9]),
  };
}
const control = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
  const path = new URL(req.url).pathname;
  if (req.method === "POST" && path === "/trim") libc?.malloc_trim(0n);
  else if (req.method === "POST") cache.clear(); // POST /clear: an empty edge cache
  (globalThis as { gc?: () => void }).gc?.();
  const m = Deno.memoryUsage();
  // V8's committed size per space (new_space, old_space, …): what of the RSS is the JS heap.
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]),
  );
  return Response.json({
    ...m,
    spaces,
    malloc: mallinfo(),
    entries: cache.lru.count,
    cacheBytes: cache.lru.bytes,
    templates: cache.templates.count,
    templateBytes: cache.templates.bytes,
  });
});
console.log(JSON.stringify({
  ready: true,
  port,
  slug: "bench",
  host: `bench.localhost:${port}`,
  imgHost: `benchimg.localhost:${port}`,
  cdnHost: `benchcdn.localhost:${port}`,
  token: pat.token,
  control: `http://127.0.0.1:${control.addr.port}`,
}));
const stop = async () => {
  await server.shutdown().catch(() => {});
  await app.close().catch(() => {});
  await db?.drop().catch(() => {});
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
