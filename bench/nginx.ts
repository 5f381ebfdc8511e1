/**
 * The reference proxy: Debian's nginx with proxy_cache, one worker, in front of the
 * same origin. Configuration mirrors what Cachely does for the API proxy: 60 s
 * cache, concurrent misses of one key locked to one upstream fetch, keep-alive to
 * the origin, no access log.
 */
import { run } from "./proc.ts";

/**
 * `cacheDir`: proxy_cache_path, for a purge stand-in (tests/fakes/nginx_purge.ts);
 * `onTmpfs`: whether it is in memory (the bench's machine table reports it).
 */
export type Nginx = {
  port: number;
  /** The master process (its worker is its child: bench/rss.ts treeCpuMicros). */
  pid: number;
  stop(): Promise<void>;
  version: string;
  cacheDir: string;
  onTmpfs: boolean;
};

/**
 * `cdn`: nginx as the CDN in front of Cachely (the local stand-in for Deno Deploy's
 * cache or a CDN): it sends `upstreamHost` as Host, caches only responses that carry
 * `CDN-Cache-Control` (what Cachely sets for tenants with CDN offload on) and ignores
 * the browser-facing Cache-Control, as a CDN honouring CDN-Cache-Control does.
 */
export type NginxOptions = {
  cdn?: { upstreamHost: string };
  /**
   * `gzip on; gzip_types application/json;` (nginx's defaults otherwise: level 1): every hit of
   * a JSON answer compressed as it is sent, the reference for stored compressed copies.
   */
  gzip?: boolean;
};

function conf(dir: string, port: number, originPort: number, opts: NginxOptions): string {
  // As root the worker would drop to `nobody`, which cannot write our 0700 temp dir.
  const user = Deno.uid() === 0 ? "user root;" : "";
  return `
${user}
worker_processes 1;
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;${opts.gzip ? "\n  gzip on;\n  gzip_types application/json;" : ""}
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=bench:32m max_size=2g inactive=10m use_temp_path=off;
  map $upstream_http_cdn_cache_control $not_for_cdn { "" 1; default 0; }
  # Cachely's EDGE_CACHE_MAX_OBJECT_BYTES (8 MiB) mirrored: larger bodies stream through.
  # ([0-9], not \\d: a \\d in this template literal reaches nginx as a plain "d", and nginx
  # then caches the 50 MB video and serves it from its disk cache.)
  map $upstream_http_content_length $over_8mib { "~^([89][0-9]{6}|[0-9]{8,})$" 1; default 0; }
  upstream origin {
    server 127.0.0.1:${originPort};
    keepalive 128;
  }
  server {
    listen 127.0.0.1:${port} backlog=4096;${
    opts.cdn ? "" : `
    # Video streams through uncached, as Cachely streams a body over its bound: proxy_cache
    # off, so a Range goes to the origin as Cachely forwards it (with proxy_cache on, nginx
    # fetches the whole 50 MB object for every range). Buffers tuned for streaming: the
    # fastest of four set-ups measured (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read").
    location ~ /video/upload/ {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffers 16 64k;
      proxy_busy_buffers_size 128k;
      proxy_max_temp_file_size 0;
    }
    # Ranges of big media as an operator caches them with nginx: the slice module cuts the
    # object into 1m slices, each fetched with its own Range and cached, as Cachely caches
    # 1 MiB slices (edge/slices.ts). /slice/<origin path> is the origin path.
    location ^~ /slice/ {
      slice 1m;
      rewrite ^/slice(/.*)$ $1 break;
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Range $slice_range;
      proxy_cache bench;
      proxy_cache_key $uri$is_args$args$slice_range;
      proxy_cache_valid 200 206 1d; # Cachely's default asset TTL
      proxy_cache_lock on;
      add_header X-Cache $upstream_cache_status;
    }`
  }
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache bench;
      proxy_cache_key $uri$is_args$args;
      proxy_cache_valid 200 60s;
      proxy_cache_lock on;
      proxy_cache_lock_timeout 10s;
      add_header X-Cache $upstream_cache_status;
      proxy_no_cache $over_8mib;${
    opts.cdn
      ? `
      proxy_set_header Host ${opts.cdn.upstreamHost};
      proxy_ignore_headers Cache-Control Expires;
      proxy_no_cache $not_for_cdn;`
      : ""
  }
    }
  }
}
`;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = (l.addr as Deno.NetAddr).port;
  l.close();
  return p;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const SHM = "/dev/shm/";

/**
 * nginx's cache and temp files on tmpfs when the machine has one: Cachely's cache is in
 * memory, so the reference's is too. On this VM's ext4 a miss that nginx writes to disk
 * took 0.72 ms at p50 against 0.22 ms on tmpfs (bench/ANALYSIS.md "A fair miss reference, churn at the bound, Zipf"): a
 * disk-bound reference would flatter Cachely.
 */
async function nginxDir(parent: string, port: number): Promise<string> {
  try {
    return await Deno.makeTempDir({ dir: SHM, prefix: `cachely-nginx-${port}-` });
  } catch {
    return `${parent}/nginx-${port}`;
  }
}

export async function startNginx(
  parent: string,
  originPort: number,
  opts: NginxOptions = {},
): Promise<Nginx> {
  const port = freePort();
  const dir = await nginxDir(parent, port);
  await Deno.mkdir(`${dir}/cache`, { recursive: true });
  const file = `${dir}/nginx.conf`;
  await Deno.writeTextFile(file, conf(dir, port, originPort, opts));
  const version = (await new Deno.Command("nginx", { args: ["-v"], stderr: "piped" }).output())
    .stderr;
  await run("nginx", ["-t", "-q", "-p", dir, "-c", file]);
  const child = new Deno.Command("nginx", {
    args: ["-p", dir, "-c", file],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  await waitForPort(port, 10_000);
  return {
    port,
    pid: child.pid,
    cacheDir: `${dir}/cache`,
    onTmpfs: dir.startsWith(SHM),
    version: new TextDecoder().decode(version).trim().replace(/^nginx version: /, ""),
    async stop() {
      // SIGQUIT: graceful shutdown of the master and its worker.
      try {
        child.kill("SIGQUIT");
      } catch { /* gone */ }
      const t = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5_000);
      await child.status;
      await child.stderr.cancel().catch(() => {});
      clearTimeout(t);
      if (dir.startsWith(SHM)) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
