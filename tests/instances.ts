/**
 * Real processes of the program (`deno run -A main.ts`) for tests that need more than one
 * instance, a real shutdown or a real pooler: start one and wait until it listens, talk
 * to it as a user (cookie jar) or a visitor (tenant Host header), stop it.
 */
// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
import postgres from "postgres";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";
import { tcpFreezer } from "./tcp_freezer.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Debian's pgbouncer binary, or undefined when it is not installed. */
export function pgbouncerBinary(): string | undefined {
  return ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
}

/** pgbouncer in transaction mode in front of `direct`, or null when not installed. */
export async function startPgbouncer(dir: string, direct: URL, extraIni = "") {
  const bin = pgbouncerBinary();
  if (!bin) {
    console.log("instances: pgbouncer not installed: instances use PostgreSQL directly");
    return null;
  }
  const port = freePort();
  const db = direct.pathname.slice(1);
  await Deno.writeTextFile(
    `${dir}/pgbouncer.ini`,
    `[databases]\n${db} = host=${direct.hostname} port=${direct.port || 5432} dbname=${db} user=${
      direct.username || "postgres"
    }\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${port}\nauth_type = any\n` +
      `pool_mode = transaction\nmax_client_conn = 200\ndefault_pool_size = 10\n` +
      `ignore_startup_parameters = extra_float_digits,options\nunix_socket_dir =\n${extraIni}`,
  );
  await Deno.chmod(dir, 0o755);
  const args = Deno.uid() === 0
    ? ["-u", "postgres", `${dir}/pgbouncer.ini`]
    : [`${dir}/pgbouncer.ini`];
  // Its log is not read: a pipe nobody drains would stall it once an outage fills it.
  const child = new Deno.Command(bin, { args, stdout: "null", stderr: "null" }).spawn();
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      const url = new URL(direct);
      url.host = `127.0.0.1:${port}`;
      return { url: url.toString(), child };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill();
  throw new Error("pgbouncer did not start");
}

export type Instance = {
  port: number;
  child: Deno.ChildProcess;
  out: string[];
  exited: Promise<number>;
};

/**
 * Starts `deno run -A main.ts`; resolves once it is ready, its database side started too (or
 * with `untilReady: false` once it listens: the edge serves from then on), or rejects with
 * its output. `deno`: the runtime binary (default: the one running the test).
 */
export async function startInstance(
  env: Record<string, string>,
  { untilReady = true, deno = Deno.execPath(), lock = true } = {},
): Promise<Instance> {
  const child = new Deno.Command(deno, {
    // Another runtime than the test's would rewrite deno.lock in its own format.
    args: ["run", "-A", ...(deno === Deno.execPath() && lock ? [] : ["--no-lock"]), MAIN],
    env: { ...env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out: string[] = [];
  let resolvePort: (p: number) => void;
  const port = new Promise<number>((r) => resolvePort = r);
  let resolveReady: () => void;
  const ready = new Promise<void>((r) => resolveReady = r);
  const read = async (s: ReadableStream<Uint8Array>) => {
    const text = s.pipeThrough(
      new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>,
    );
    for await (const line of text.pipeThrough(lines())) {
      out.push(line);
      const m = line.includes("cachely listening") ? line.match(/"port":(\d+)/) : null;
      if (m) resolvePort(Number(m[1]));
      if (line.includes("cachely ready")) resolveReady();
    }
  };
  read(child.stdout);
  read(child.stderr);
  const exited = child.status.then((s) => s.code);
  const first = await Promise.race([
    untilReady ? ready.then(() => port) : port,
    exited.then((c) => -1 - c),
  ]);
  if (first < 0) throw new Error(`instance exited before it was ready:\n${out.join("\n")}`);
  return { port: first, child, out, exited };
}

function lines(): TransformStream<string, string> {
  let buf = "";
  return new TransformStream({
    transform(chunk, ctl) {
      buf += chunk;
      const parts = buf.split("\n");
      buf = parts.pop()!;
      for (const p of parts) ctl.enqueue(p);
    },
    flush(ctl) {
      if (buf) ctl.enqueue(buf);
    },
  });
}

/** A user agent with a cookie jar, talking to one instance or another. */
export class Agent {
  cookie = "";
  async req(inst: Instance, method: string, path: string, body?: unknown) {
    const origin = `http://127.0.0.1:${inst.port}`;
    const headers: Record<string, string> = { origin };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${origin}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0];
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, body: json, text };
  }
}

/** GET with a tenant Host header (fetch keeps its own Host): raw HTTP/1.1, returns the status. */
export async function edgeGet(inst: Instance, host: string, path: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inst.port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const buf = new Uint8Array(64);
    const n = await conn.read(buf);
    const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    return Number(head.split(" ")[1]);
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

export async function signUp(inst: Instance): Promise<Agent & { id: string; email: string }> {
  const a = new Agent() as Agent & { id: string; email: string };
  a.email = `u-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const r = await a.req(inst, "POST", "/api/auth/signup", {
    email: a.email,
    password: "correct horse battery",
  });
  if (r.status !== 201) throw new Error(`signup: ${r.status} ${r.text}`);
  a.id = r.body.user.id;
  return a;
}

export async function stop(inst: Instance) {
  try {
    inst.child.kill("SIGTERM");
  } catch { /* gone */ }
  await inst.exited;
}

/** A whole edge response for a tenant Host header (raw HTTP/1.1, Connection: close). */
export async function edgeFetch(
  inst: Instance,
  host: string,
  path: string,
): Promise<{ status: number; head: string; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inst.port });
  await conn.write(
    new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
  );
  const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  const at = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, at);
  return { status: Number(head.split(" ")[1]), head, body: raw.slice(at + 4) };
}

/**
 * What a set of instances shares: a fresh PostgreSQL database made from `base`, a temp
 * dir holding the KV file, and the environment to start them with (usage flushed only at
 * shutdown); `close()` drops the database and the dir.
 */
export async function sharedWorld(base: string, prefix: string) {
  const dir = await Deno.makeTempDir();
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const env: Record<string, string> = {
    DATABASE_URL: url.toString(),
    KV_PATH: `${dir}/kv.sqlite3`,
    DATA_DIR: `${dir}/data`,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    PROXY_DOMAIN: "localhost:8000",
    ALLOW_PRIVATE_UPSTREAMS: "true",
    USAGE_FLUSH_INTERVAL_MS: "3600000",
  };
  return {
    dir,
    url,
    env,
    async close() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Creates a generic tenant `<prefix>-<random>` proxying `/~api` to `apiOrigin`: its slug and host. */
export async function createTenantOn(
  inst: Instance,
  owner: Agent,
  prefix: string,
  apiOrigin: string,
): Promise<{ slug: string; host: string }> {
  const slug = `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  const created = await owner.req(inst, "POST", "/api/tenants", {
    slug,
    cms: "generic",
    apiOrigin,
  });
  if (created.status !== 201) throw new Error(`create tenant: ${created.status} ${created.text}`);
  return { slug, host: `${slug}.localhost:8000` };
}

/**
 * A TCP gate in front of PostgreSQL: closed, it accepts and drops every connection (the
 * driver sees the connection end, an unreachable database); open, it relays both ways.
 */
export function databaseGate(target: URL) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let open = false;
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      if (!open) {
        conn.close();
        continue;
      }
      conns.add(conn);
      Deno.connect({ hostname: target.hostname, port: Number(target.port || 5432) }).then(
        async (server) => {
          conns.add(server);
          await Promise.allSettled([
            conn.readable.pipeTo(server.writable),
            server.readable.pipeTo(conn.writable),
          ]);
        },
        () => conn.close(),
      );
    }
  })().catch(() => {});
  const url = new URL(target);
  url.host = `127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return {
    url: url.toString(),
    open: () => open = true,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed by its peer */ }
      }
    },
  };
}

/**
 * An instance on its own database that it reaches through a tcpFreezer relay (migrations go
 * direct), a signed-up owner and a generic tenant `<tenantPrefix>-…` proxying to a JSON
 * origin; `env` adds to the instance's environment. `close()` stops and drops it all.
 */
export async function instanceBehindRelay(
  base: string,
  dbPrefix: string,
  tenantPrefix: string,
  env: Record<string, string>,
) {
  const world = await sharedWorld(base, dbPrefix);
  const relay = tcpFreezer(world.url);
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ ok: true }),
  );
  const inst = await startInstance({
    ...world.env,
    DATABASE_URL: relay.url,
    MIGRATION_DATABASE_URL: world.url.toString(),
    ...env,
  });
  const owner = await signUp(inst);
  const origin = `http://127.0.0.1:${upstream.addr.port}`;
  const tenant = await createTenantOn(inst, owner, tenantPrefix, origin);
  return {
    world,
    relay,
    inst,
    owner,
    ...tenant,
    async close() {
      await stop(inst);
      relay.close();
      await upstream.shutdown();
      await world.close();
    },
  };
}
