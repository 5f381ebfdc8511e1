/**
 * The caches under test in the RFC 9111 conformance run (bench/conformance.ts), each in front
 * of the suite's origin on a port of its own: Cachely's edge in this process (a generic tenant
 * whose site proxy is the origin, `cacheMode: "origin"`, every other setting the default),
 * Debian's nginx with proxy_cache honouring the origin's headers, and Squid as an
 * accelerator, when installed.
 */
import { createEdge } from "../edge/mod.ts";
import { upstreamClient } from "../edge/upstream_client.ts";
import { loadConfig } from "../lib/config.ts";
import { systemClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import { type EdgeSnapshot, writeSnapshot } from "../lib/kv/snapshot.ts";
import { EMPTY_AI_SNAPSHOT } from "../lib/ai/snapshot_types.ts";
import { cachingOf } from "../lib/tenants/caching.ts";
import { which } from "./proc.ts";

/** A running cache: its base URL and how to stop it. */
export type CacheUnderTest = { name: string; url: string; stop(): Promise<void> };

/** Cachely's edge with the tenant as a customer gets it after choosing origin mode. */
export async function startCachelyEdge(port: number, origin: string): Promise<CacheUnderTest> {
  const config = loadConfig({
    ENCRYPTION_KEY: btoa("conformance-key-0123456789abcdef"),
    KV_PATH: ":memory:",
    PUBLIC_URL: `http://localhost:${port}`,
    PROXY_DOMAIN: `localhost:${port}`,
    ALLOW_PRIVATE_UPSTREAMS: "true",
    QUOTAS: "off",
    LOG_LEVEL: "error",
  });
  const kv = await Deno.openKv(":memory:");
  const snap: EdgeSnapshot = {
    v: 1,
    builtAt: new Date().toISOString(),
    tenantId: 1,
    slug: "suite",
    cms: "generic",
    cloudName: null,
    cacheTtl: 60,
    api: {
      origin: null,
      authMode: "none",
      authParam: null,
      tokenEnc: null,
      previewParam: "cachely-preview",
    },
    website: { origin, siteProxy: true },
    versions: { api: 1, assets: 1, html: 1 },
    domains: [],
    ai: EMPTY_AI_SNAPSHOT,
    experiments: [],
    caching: cachingOf({ cacheMode: "origin" }),
  };
  await writeSnapshot(kv, snap);
  const edge = createEdge({
    config,
    kv,
    clock: systemClock,
    log: createLogger("error"),
    upstream: upstreamClient(config),
    resolveDns: Deno.resolveDns,
    usage: { record: () => {} },
    transform: null,
  }, { webCacheName: null });
  const host = `suite.preview.localhost:${port}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, (req) => {
    const u = new URL(req.url);
    const inner = new Request(`http://${host}${u.pathname}${u.search}`, req);
    return edge.handle(inner, { surface: "preview", slug: "suite" }, { clientIp: "127.0.0.1" });
  });
  return {
    name: "cachely",
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await server.shutdown();
      edge.close();
      kv.close();
    },
  };
}

async function spawnDaemon(name: string, cmd: string, args: string[], port: number, dir: string) {
  const child = new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).spawn();
  const errText = new Response(child.stderr).text();
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return {
        name,
        url: `http://127.0.0.1:${port}`,
        async stop() {
          child.kill("SIGTERM");
          await child.status;
          await errText;
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`${name} did not listen on ${port}: ${await errText}`);
}

/** nginx with proxy_cache keyed by URL, freshness from the origin's headers, revalidation on. */
export async function startNginxCache(port: number, originPort: number) {
  const bin = await which("nginx");
  if (!bin) return null;
  const dir = await Deno.makeTempDir({ prefix: "conformance-nginx-" });
  const user = Deno.uid() === 0 ? "user root;" : "";
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `${user}
worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/f;
  uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=suite:8m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${originPort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache suite;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
    }
  }
}
`,
  );
  return await spawnDaemon("nginx", bin, ["-c", `${dir}/nginx.conf`, "-p", dir], port, dir);
}

/** Squid as a reverse proxy (accelerator) with its memory cache, defaults otherwise. */
export async function startSquidCache(port: number, originPort: number) {
  const bin = await which("squid");
  if (!bin) return null;
  const dir = await Deno.makeTempDir({ prefix: "conformance-squid-" });
  await Deno.chmod(dir, 0o777);
  await Deno.writeTextFile(
    `${dir}/squid.conf`,
    `http_port 127.0.0.1:${port} accel defaultsite=127.0.0.1 no-vhost
cache_peer 127.0.0.1 parent ${originPort} 0 no-query originserver name=origin
http_access allow all
cache_peer_access origin allow all
cache_mem 64 MB
pid_filename ${dir}/squid.pid
cache_log ${dir}/cache.log
access_log none
coredump_dir ${dir}
shutdown_lifetime 0 seconds
`,
  );
  return await spawnDaemon("squid", bin, ["-N", "-f", `${dir}/squid.conf`], port, dir);
}
