/**
 * A whole API cache hit (host routing + edge) of a tenant without purge records and of one
 * whose snapshot carries 50 records of 1,000 short entries (URLs, prefixes and tags mixed;
 * written straight to the table), all newer than the cached object and none matching it, so
 * every one applies
 * (`deno bench -A bench/purge_hit_bench.ts`; bench/RESULTS.md "Purge check").
 */
import { loadConfig } from "../lib/config.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { openDb } from "../lib/db/client.ts";
import { createUser } from "../lib/users/mod.ts";
import { createTenant } from "../lib/tenants/service.ts";
import { silentLogger } from "../lib/log.ts";
import { upsertBilling } from "../lib/billing/state.ts";
import { changeTenant } from "../lib/edge_config/changes.ts";
import { cachePurges } from "../lib/db/schema/mod.ts";
import { jsonBody } from "./origin.ts";

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
  }),
  { dbHandle: await openDb({}), kv: await Deno.openKv(":memory:"), log: silentLogger },
);
const s = app.services;
const user = await createUser(s, "bench@example.com", "bench password 123");
await upsertBilling(s, user.id, { planCode: "pro", adminOverride: true });
const info = {
  remoteAddr: { transport: "tcp" as const, hostname: "127.0.0.1", port: 40000 },
  completed: Promise.resolve(),
};
const get = async (url: string) => {
  const r = await app.handler(new Request(url), info);
  await r.arrayBuffer();
  return r.headers.get("x-cachely-cache");
};

const ids: Record<string, number> = {};
for (const slug of ["plain", "purged"]) {
  const t = await createTenant(s, user.id, {
    slug,
    cms: "generic",
    apiOrigin: `http://127.0.0.1:${origin.addr.port}`,
    apiAuthMode: "bearer",
    token: "bench-upstream-token",
  });
  ids[slug] = (t as { id: number }).id;
  for (const p of ["/~api/data.json", "/~api/probe"]) {
    await get(`http://${slug}.localhost:8000${p}`);
  }
}

// 50 records newer than every cached object; the first also names /~api/probe, which shows
// when the edge has the records.
const at = Date.now() + 3_600_000;
await changeTenant(s, ids.purged, async (tx) => {
  for (let r = 0; r < 50; r++) {
    const urls = r === 0 ? ["/~api/probe"] : [];
    const prefixes: string[] = [];
    const tags: string[] = [];
    for (let i = urls.length; i < 1000; i++) {
      // short entries: 50,000 of them must fit in one KV snapshot write (800 KiB)
      const id = `${r}.${i}`;
      if (i % 3 === 0) urls.push(`/u${id}`);
      else if (i % 3 === 1) prefixes.push(`/p${id}/`);
      else tags.push(`t${id}`);
    }
    await tx.db.insert(cachePurges).values({
      tenantId: ids.purged,
      atMs: at + r,
      urls,
      prefixes,
      tags,
    });
  }
});
for (let i = 0; (await get("http://purged.localhost:8000/~api/probe")) !== "MISS"; i++) {
  if (i > 200) throw new Error("the edge never saw the purge records");
  await new Promise((r) => setTimeout(r, 50));
}
for (const slug of ["plain", "purged"]) {
  const hit = await get(`http://${slug}.localhost:8000/~api/data.json`);
  if (hit !== "HIT") throw new Error(`${slug}: ${hit}, not a HIT`);
}

Deno.bench("API cache hit, no purge records", { group: "hit", baseline: true }, async () => {
  await app.handler(new Request("http://plain.localhost:8000/~api/data.json"), info);
});
Deno.bench("API cache hit, 50 purge records × 1,000 entries", { group: "hit" }, async () => {
  await app.handler(new Request("http://purged.localhost:8000/~api/data.json"), info);
});

globalThis.addEventListener("unload", () => void origin.shutdown());
