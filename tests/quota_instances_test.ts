/**
 * The quota snapshot across two instances (real processes of main.ts on one PostgreSQL and one
 * KV file): neither instance alone sees a free account's limit crossed, yet both pause its
 * tenant once their flushes have reached the shared usage tables. Needs TEST_DATABASE_URL.
 */
import postgres from "postgres";
import { assertEquals, assertMatch } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DB_URL = Deno.env.get("TEST_DATABASE_URL");
const HOST = "quota.test";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** GET with a chosen Host header over a raw socket (fetch cannot set Host). */
async function getWithHost(port: number, host: string, path: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const req = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(req));
  const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  const [head, ...rest] = raw.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), head, body: rest.join("\r\n\r\n") };
}

type Instance = { port: number; base: string; child: Deno.ChildProcess; stderr: Promise<string> };

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = freePort();
  const base = `http://localhost:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      NO_COLOR: "1",
      ...env,
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      await (await fetch(`${base}/api/auth/me`)).body?.cancel();
      return { port, base, child, stderr };
    } catch {
      if (Date.now() > deadline) throw new Error(`instance did not start: ${await stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function stop(i: Instance): Promise<void> {
  i.child.kill("SIGINT");
  await i.child.status;
  await i.stderr;
}

Deno.test({
  name: "two instances: the pause holds on both once the shared totals cross the limit",
  ignore: !DB_URL,
  sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeOps: false,
  async fn() {
    const name = `cachely_q_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(DB_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(DB_URL!);
    url.pathname = `/${name}`;
    const dir = await Deno.makeTempDir({ prefix: "cachely-quota-" });
    const up = startUpstream();
    const env = {
      DATABASE_URL: url.toString(),
      KV_PATH: `${dir}/kv.sqlite3`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ALLOW_PRIVATE_UPSTREAMS: "true",
      PROXY_DOMAIN: HOST,
      QUOTAS: "on",
      PLANS: JSON.stringify({ free: { monthlyRequests: 10 } }),
      USAGE_FLUSH_INTERVAL_MS: "300",
      QUOTA_CHECK_INTERVAL_MS: "0",
      EDGE_SNAPSHOT_TTL_MS: "100",
      LOG_LEVEL: "error",
    };
    const instances: Instance[] = [];
    try {
      // One after the other: the first applies the migrations.
      instances.push(await startInstance(env));
      instances.push(await startInstance(env));
      const [a, b] = instances;
      const signup = await fetch(`${a.base}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "two@example.com", password: "correct horse battery" }),
      });
      assertEquals(signup.status, 201);
      await signup.body?.cancel();
      const cookie = signup.headers.getSetCookie()[0].split(";")[0];
      const created = await fetch(`${a.base}/api/tenants`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: a.base, cookie },
        body: JSON.stringify({ slug: "twin", cms: "generic", apiOrigin: up.url }),
      });
      assertEquals(created.status, 201, await created.text());
      const host = `twin.${HOST}`;
      // 6 requests through A and 4 through B: 10 of 10 only when both instances' counts add up.
      for (let i = 0; i < 6; i++) {
        assertEquals((await getWithHost(a.port, host, `/~api/a${i}`)).status, 200);
      }
      for (let i = 0; i < 4; i++) {
        assertEquals((await getWithHost(b.port, host, `/~api/b${i}`)).status, 200);
      }
      // Wait (not a timing assertion) until both instances answer 429.
      const paused = new Set<number>();
      const deadline = Date.now() + 30_000;
      while (paused.size < 2 && Date.now() < deadline) {
        for (const i of instances) {
          const r = await getWithHost(i.port, host, "/~api/probe");
          if (r.status === 429) {
            paused.add(i.port);
            assertMatch(r.head, /retry-after: \d+/i);
            assertMatch(r.body, /quota_exceeded/);
          }
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      assertEquals(paused.size, 2, "both instances pause the tenant");
      // Paused answers are not counted: the shared total stays at the 10 served requests
      // (probes answered before the pause was seen are counted too, so compare before/after).
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const total = async () =>
        Number((await db`SELECT coalesce(sum(requests),0)::int AS n FROM usage_daily`)[0].n);
      await new Promise((r) => setTimeout(r, 800)); // two flush intervals
      const before = await total();
      for (let i = 0; i < 5; i++) {
        assertEquals((await getWithHost(a.port, host, "/~api/x")).status, 429);
      }
      await new Promise((r) => setTimeout(r, 800));
      assertEquals(await total(), before);
      await db.end();
    } finally {
      for (const i of instances) await stop(i);
      await up.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
