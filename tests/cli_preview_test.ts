// deno-lint-ignore-file no-explicit-any -- JSON answers are read loosely
/**
 * `preview link` and `preview rotate` end to end: the real program on a loopback port, the
 * CLI as a subprocess with CACHELY_URL and CACHELY_TOKEN, the link used on the edge.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, serveOnLoopback, signUp } from "./harness.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

async function cli(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, ...args],
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch { /* not JSON */ }
  return { code: out.code, stdout, stderr: new TextDecoder().decode(out.stderr), json };
}

dbTest("cli: preview link makes a working link; preview rotate ends it", async (app) => {
  const server = serveOnLoopback(app.handler as Deno.ServeHandler);
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { apiOrigin: `${server.url}/nowhere` });
    const pat = await owner.post("/api/user/tokens", { name: "cli" });
    const env = { CACHELY_URL: server.url, CACHELY_TOKEN: pat.body.token };
    const made = await cli(["preview", "link", slug, "/~api/posts", "--ttl", "600", "--json"], env);
    assertEquals(made.code, 0, made.stderr);
    assertEquals(made.json.scope, "/~api/posts");
    assert(made.json.url.includes("cachely-preview-token=cpl1."));
    const human = await cli(["preview", "link", slug], env);
    assertEquals(human.code, 0, human.stderr);
    assert(human.stdout.startsWith(`http://${slug}.localhost:8000/~api/?cachely-preview-token=`));
    assertEquals((await cli(["preview", "link", slug, "/x", "--ttl", "soon"], env)).code, 2);
    const short = await cli(["preview", "link", slug, "/x", "--ttl", "5"], env);
    assertEquals(short.code, 1);
    assert(short.stderr.includes("ttlSeconds"), short.stderr);
    const anon = new Client(app);
    const path = new URL(made.json.url);
    const before = await anon.get(`http://${slug}.localhost:8000${path.pathname}${path.search}`);
    assert(before.status !== 403, before.text);
    const rotated = await cli(["preview", "rotate", slug], env);
    assertEquals(rotated.code, 0, rotated.stderr);
    const after = await anon.get(`http://${slug}.localhost:8000${path.pathname}${path.search}`);
    assertEquals(after.status, 403);
  } finally {
    await server.close();
  }
});
