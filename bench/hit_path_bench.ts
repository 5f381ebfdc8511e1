/**
 * The cache-hit path in process, without sockets, so the JavaScript cost per hit
 * can be compared with the cost of building a bare Response
 * (`deno bench -A bench/hit_path_bench.ts`).
 */
import { loadConfig } from "../lib/config.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { openDb } from "../lib/db/client.ts";
import { createUser } from "../lib/users/mod.ts";
import { createTenant } from "../lib/tenants/service.ts";
import { jsonBody } from "./origin.ts";
import { silentLogger } from "../lib/log.ts";
import { upsertBilling } from "../lib/billing/state.ts";

const body = jsonBody();
const origin = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () => new Response(body, { headers: { "content-type": "application/json" } }),
);
const app = await bootstrap(
  loadConfig({
    ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
    KV_PATH: ":memory:",
    PUBLIC_URL: "http://localhost:8000",
    PROXY_DOMAIN: "localhost:8000",
    ALLOW_PRIVATE_UPSTREAMS: "true",
    QUOTAS: Deno.env.get("QUOTAS") ?? "on",
  }),
  { dbHandle: await openDb({}), kv: await Deno.openKv(":memory:"), log: silentLogger },
);
const user = await createUser(app.services, "bench@example.com", "bench password 123");
// Pro, so millions of bench hits are metered, never paused; the quota check runs on every hit.
await upsertBilling(app.services, user.id, { planCode: "pro", adminOverride: true });
await createTenant(app.services, user.id, {
  slug: "bench",
  cms: "generic",
  apiOrigin: `http://127.0.0.1:${origin.addr.port}`,
  apiAuthMode: "bearer",
  token: "bench-upstream-token",
});
const url = "http://bench.localhost:8000/~api/data.json";
const info = {
  remoteAddr: { transport: "tcp" as const, hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
};
const first = await app.handler(new Request(url), info);
await first.arrayBuffer();
const hit = await app.handler(new Request(url), info);
if (hit.headers.get("x-cachely-cache") !== "HIT") throw new Error("not a hit");
const hitHeaders = [...hit.headers];
await hit.arrayBuffer();
const queryUrl = `${url}?v=1&locale=en`;
for (let i = 0; i < 2; i++) await (await app.handler(new Request(queryUrl), info)).arrayBuffer();

Deno.bench("new Response(2 KB, 1 header)", { group: "hit", baseline: true }, () => {
  new Response(body, { headers: { "content-type": "application/json" } });
});

Deno.bench(`new Response(2 KB, the hit's ${hitHeaders.length} headers)`, { group: "hit" }, () => {
  new Response(body, { headers: hitHeaders });
});

Deno.bench("edge.handle(): API cache hit", { group: "hit" }, async () => {
  await app.edge.handle(new Request(url), { surface: "tenant", slug: "bench" }, {
    clientIp: "127.0.0.1",
  });
});

Deno.bench("app.handler(): API cache hit with a query string", { group: "hit" }, async () => {
  await app.handler(new Request(queryUrl), info);
});

Deno.bench("app.handler(): API cache hit (host routing + edge)", { group: "hit" }, async () => {
  await app.handler(new Request(url), info);
});

globalThis.addEventListener("unload", () => {
  // Deno.bench has no teardown hook; the process exits right after.
  origin.shutdown();
});
