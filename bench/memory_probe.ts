/**
 * Heap and external bytes per cached entry, in process: N distinct 2 KB misses through
 * app.handler against a loopback origin, with a full GC before and after.
 *
 *   deno run -A --v8-flags=--expose-gc bench/memory_probe.ts [N]
 */
import { loadConfig } from "../lib/config.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { openDb } from "../lib/db/client.ts";
import { createUser } from "../lib/users/mod.ts";
import { createTenant } from "../lib/tenants/service.ts";
import { jsonBody } from "./origin.ts";
import { silentLogger } from "../lib/log.ts";

const n = Number(Deno.args[0] ?? 20_000);
const body = jsonBody();
const origin = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () =>
    new Response(body, {
      headers: { "content-type": "application/json", "cache-control": "max-age=60" },
    }),
);
const app = await bootstrap(
  loadConfig({
    ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
    KV_PATH: ":memory:",
    PUBLIC_URL: "http://localhost:8000",
    PROXY_DOMAIN: "localhost:8000",
    ALLOW_PRIVATE_UPSTREAMS: "true",
    EDGE_CACHE_MAX_BYTES: String(1024 ** 3),
  }),
  { dbHandle: await openDb({}), kv: await Deno.openKv(":memory:"), log: silentLogger },
);
const user = await createUser(app.services, "bench@example.com", "bench password 123");
await createTenant(app.services, user.id, {
  slug: "bench",
  cms: "generic",
  apiOrigin: `http://127.0.0.1:${origin.addr.port}`,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
});
const info = {
  remoteAddr: { transport: "tcp" as const, hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
};
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const get = async (p: string) =>
  await (await app.handler(new Request(`http://bench.localhost:8000/~api${p}`), info))
    .arrayBuffer();
await get("/warm");
gc();
const m0 = Deno.memoryUsage();
for (let i = 0; i < n; i += 64) {
  await Promise.all(Array.from({ length: 64 }, (_, j) => get(`/miss/probe-${i + j}`)));
}
for (let i = 0; i < 1000; i++) await get("/miss/probe-1"); // hits
gc();
const m1 = Deno.memoryUsage();
const per = (a: number, b: number) => ((b - a) / n).toFixed(0);
console.log(
  `${n} entries: heap ${per(m0.heapUsed, m1.heapUsed)} B/entry, external ${
    per(m0.external, m1.external)
  } B/entry, rss ${((m1.rss - m0.rss) / 1024 / 1024).toFixed(0)} MiB growth`,
);
await app.close();
await origin.shutdown();
Deno.exit(0);
