/**
 * The real program as a user starts it: `deno run -A main.ts` in a subprocess on a
 * free port with an empty DATA_DIR (embedded PGlite, local KV, generated key), then
 * README's walk-through: sign up → create tenant → read it back → tenant host answers.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const TOKEN = "CANARY-start-token-91d3";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * GET through a raw socket with a chosen Host header. Deno's fetch neither resolves
 * `*.localhost` (curl and browsers do, RFC 6761) nor lets a caller set Host.
 */
async function getWithHost(port: number, host: string, path: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const req = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(req));
    const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const [head, ...rest] = raw.split("\r\n\r\n");
    return { status: Number(head.split(" ")[1]), head, body: rest.join("\r\n\r\n") };
  } catch (e) {
    try {
      conn.close();
    } catch { /* already closed by the response stream */ }
    throw e;
  }
}

async function waitUntilListening(base: string, child: Deno.ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    try {
      const r = await fetch(`${base}/api/auth/me`);
      await r.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(exited ? "main.ts exited before listening" : "main.ts did not start in 90 s");
}

Deno.test({
  name: "main.ts serves README's walk-through on an empty DATA_DIR",
  sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cachely-start-" });
    const port = freePort();
    const base = `http://localhost:${port}`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? dir,
        ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: `${dir}/data`,
        UPSTREAM_TIMEOUT_MS: "2000",
        LOG_LEVEL: "warn",
        NO_COLOR: "1",
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();
    try {
      await waitUntilListening(base, child);

      // 1. sign up
      const signup = await fetch(`${base}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "you@example.com", password: "correct horse battery" }),
      });
      assertEquals(signup.status, 201);
      await signup.body?.cancel();
      const cookie = signup.headers.getSetCookie()[0].split(";")[0];
      assertMatch(cookie, /^cachely_session=/);

      // 2. create a tenant (cookie writes carry our Origin)
      const created = await fetch(`${base}/api/tenants`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base, cookie },
        body: JSON.stringify({ slug: "acme", cms: "contentful", token: TOKEN }),
      });
      assertEquals(created.status, 201);
      assertEquals(await created.json(), {
        ok: true,
        key: "acme",
        proxyBase: `http://acme.localhost:${port}`,
      });

      // 3. read it back: the token is write-only
      const got = await fetch(`${base}/api/tenants/acme`, { headers: { cookie } });
      assertEquals(got.status, 200);
      const text = await got.text();
      assertEquals(JSON.parse(text).key, "acme");
      assert(!text.includes(TOKEN), "the token is never returned");

      // 4. the tenant host answers (the upstream itself may be unreachable from here)
      const edge = await getWithHost(port, `acme.localhost:${port}`, "/~api/spaces/x/entries");
      assert(edge.status > 0, edge.head);
      assert(!edge.body.includes("unknown_tenant"), `tenant host: ${edge.status} ${edge.body}`);
      const unknown = await getWithHost(port, `nosuch.localhost:${port}`, "/~api/x");
      assertEquals(unknown.status, 404);
      assertMatch(unknown.body, /unknown_tenant/);

      // The embedded default generated its key once, under DATA_DIR.
      assertEquals(atob((await Deno.readTextFile(`${dir}/data/encryption.key`)).trim()).length, 32);
    } finally {
      child.kill("SIGINT");
      const status = await child.status;
      const log = await stderr;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      assertEquals(status.code, 0, `graceful exit on SIGINT; stderr:\n${log}`);
      assertMatch(log, /Generated ENCRYPTION_KEY/);
    }
  },
});
