/**
 * Cachely for the benchmark: the real bootstrap (PGlite under a temporary data
 * dir unless BENCH_DATABASE_URL is set, in-memory KV), one user with a personal
 * access token, and tenant `bench` whose API origin is the benchmark origin.
 *
 * Run: ORIGIN=http://127.0.0.1:N deno run -A bench/cachely_server.ts
 *   → prints {"ready":true,"port":N,"slug":"bench","host":"bench.localhost:N","token":"cly_pat_…"}
 * Extra environment (e.g. from scenarios) is passed through to lib/config.ts.
 */
import { loadConfig } from "../lib/config.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { createUser } from "../lib/users/mod.ts";
import { createPersonalToken } from "../lib/auth/tokens.ts";
import { createTenant } from "../lib/tenants/service.ts";

const origin = Deno.env.get("ORIGIN");
if (!origin) throw new Error("ORIGIN is required");

// Bind first, so PROXY_DOMAIN can carry the real port.
const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
listener.close();

const dataDir = await Deno.makeTempDir({ prefix: "cachely-bench-" });
const config = loadConfig({
  ...Deno.env.toObject(),
  PORT: String(port),
  HOST: "127.0.0.1",
  PUBLIC_URL: `http://localhost:${port}`,
  PROXY_DOMAIN: `localhost:${port}`,
  DATA_DIR: dataDir,
  DATABASE_URL: Deno.env.get("BENCH_DATABASE_URL"),
  KV_PATH: ":memory:",
  ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
  ALLOW_PRIVATE_UPSTREAMS: "true",
  LOG_LEVEL: Deno.env.get("LOG_LEVEL") ?? "warn",
});
const app = await bootstrap(config);
const user = await createUser(app.services, "bench@example.com", "bench password 123");
const pat = await createPersonalToken(app.services, user.id, "bench");
await createTenant(app.services, user.id, {
  slug: "bench",
  cms: "generic",
  apiOrigin: origin,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
});
const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, app.handler);
console.log(JSON.stringify({
  ready: true,
  port,
  slug: "bench",
  host: `bench.localhost:${port}`,
  token: pat.token,
}));
const stop = async () => {
  await server.shutdown().catch(() => {});
  await app.close().catch(() => {});
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
