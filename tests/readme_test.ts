/**
 * Every README example runs as written: the real server (main.ts in a subprocess,
 * embedded PGlite, default settings, so the free plan's limits apply), each `sh` block run by
 * bash with `set -e -o pipefail` and curl failing on any HTTP error, and each create body of
 * the provider table POSTed by a fresh account. Only the port differs (tests use port 0). The
 * CMS hosts (cdn.contentful.com, my-repo.cdn.prismic.io, images.prismic.io) answer from a
 * loopback fake: the server runs under a wrapper that connects its TLS upstreams there.
 * The first block ("Two commands": start the server, run the suite) is what this test does.
 */
import { assert, assertEquals } from "./assert.ts";
import { serveOnLoopback } from "./harness.ts";

const ROOT = new URL("../", import.meta.url);
const README = await Deno.readTextFile(new URL("README.md", ROOT));

function shBlocks(md: string): string[] {
  return [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The JSON create bodies of the provider table ("create with" column). */
function tableBodies(md: string): Record<string, unknown>[] {
  return [...md.matchAll(/^\| [^|]+\| `(\{"cms":[^`]+\})`/gm)].map((m) => JSON.parse(m[1]));
}

/** The CMS hosts the examples reach, as a loopback fake (Host decides nothing: paths do). */
function fakeCms() {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return serveOnLoopback((req) => {
    const url = new URL(req.url);
    if (url.pathname.endsWith(".png") || url.pathname.endsWith(".jpg")) {
      return new Response(png, { headers: { "content-type": "image/png" } });
    }
    if (url.pathname === "/spaces/abc123xyz/entries") {
      return Response.json({
        items: [{
          fields: {
            title: "Hello",
            image: "https://images.ctfassets.net/abc123xyz/id1/tok1/hero.jpg",
          },
        }],
      });
    }
    if (url.pathname === "/api/v2") {
      // The API root, as Prismic answers it: the master ref the README's example names.
      return Response.json({
        refs: [{ id: "master", ref: "ZH5d1xAAACMAQ0bE", label: "Master", isMasterRef: true }],
      });
    }
    if (url.pathname === "/api/v2/documents/search") {
      return Response.json({
        results: [{
          data: { hero: { url: "https://images.prismic.io/my-repo/abc_hero.png?auto=format" } },
        }],
      });
    }
    return Response.json({});
  });
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitUp(url: string, child: Deno.ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(url);
      await r.body?.cancel();
      return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error("server did not start");
}

Deno.test({
  name: "README: every example runs as written against a real server",
  sanitizeResources: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeOps: false,
  async fn() {
    const blocks = shBlocks(README);
    assert(blocks.length >= 3, "the README has its walk-through and Prismic blocks");
    const bodies = tableBodies(README);
    assertEquals(bodies.length, 8, "one create body per kind");

    const dir = await Deno.makeTempDir({ prefix: "cachely-readme-" });
    const cms = fakeCms();
    const port = freePort();
    const wrapper = `${dir}/serve.ts`;
    await Deno.writeTextFile(
      wrapper,
      `const port = ${cms.port};
(Deno as unknown as { connectTls: unknown }).connectTls = () =>
  Deno.connect({ hostname: "127.0.0.1", port });
const { main } = await import(${JSON.stringify(new URL("main.ts", ROOT).href)});
await main();
`,
    );
    const server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--config", new URL("deno.json", ROOT).pathname, wrapper],
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: `${dir}/data`,
        LOG_LEVEL: "error",
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const base = `http://localhost:${port}`;
    try {
      await waitUp(`${base}/api/demos/contentful`, server);

      // the provider table: each create body, with a slug, by an account of its own
      let i = 0;
      for (const body of bodies) {
        const email = `table${i}@example.com`;
        const signup = await fetch(`${base}/api/auth/signup`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password: "correct horse battery" }),
        });
        assertEquals(signup.status, 201, await signup.text());
        const cookie = signup.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
        const r = await fetch(`${base}/api/tenants`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: base, cookie },
          body: JSON.stringify({ slug: `table-${i++}`, ...body }),
        });
        assertEquals(r.status, 201, `${JSON.stringify(body)}: ${await r.text()}`);
      }

      // the sh blocks, in order, in one directory (cookies.txt carries over)
      const bin = `${dir}/bin`;
      await Deno.mkdir(bin);
      const realCurl = new TextDecoder().decode(
        (await new Deno.Command("sh", { args: ["-c", "command -v curl"] }).output()).stdout,
      ).trim();
      await Deno.writeTextFile(
        `${bin}/curl`,
        `#!/bin/sh\nexec ${realCurl} --fail-with-body "$@"\n`,
      );
      await Deno.chmod(`${bin}/curl`, 0o755);
      for (const [n, block] of blocks.slice(1).entries()) {
        // `deno task …` blocks run in the checkout and have tests of their own (sdk:pack:
        // tests/sdk_cms_test.ts installs its tarball).
        if (/^npx -y deno@[\d.]+ task /m.test(block)) continue;
        const script = block.replaceAll("localhost:8000", `localhost:${port}`);
        const out = await new Deno.Command("bash", {
          args: ["-e", "-o", "pipefail", "-c", script],
          cwd: dir,
          env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
        assertEquals(out.code, 0, `README sh block ${n + 2} failed:\n${script}\n---\n${text}`);
        // every example that shows output shows something
        if (script.includes("grep")) assert(text.trim().length > 0, `block ${n + 2}: no output`);
      }
    } finally {
      try {
        server.kill("SIGTERM");
      } catch { /* already gone */ }
      await server.status;
      await server.stderr.cancel().catch(() => {});
      await cms.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
