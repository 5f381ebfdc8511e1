/**
 * The dashboard in the coding the browser asks for: pages compressed as they leave (Vary on
 * Accept-Encoding, each decoding to the identity page), the island bundle served from the
 * copies `deno task build` made beside it, and no coding for a browser that asks for none.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { assert, assertEquals } from "./assert.ts";
import { dbTest } from "./harness.ts";

const APP = "http://localhost:8000";

async function get(app: { handler: Deno.ServeHandler }, path: string, ae: string | null) {
  const headers = new Headers();
  if (ae !== null) headers.set("accept-encoding", ae);
  const res = await app.handler(new Request(`${APP}${path}`, { headers }), {
    remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 40000 },
    completed: Promise.resolve(),
  } as Deno.ServeHandlerInfo<Deno.NetAddr>);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

dbTest(
  "/login is sent br or gzip as asked, with Vary, decoding to the identity page",
  async (app) => {
    const plain = await get(app, "/login", null);
    assertEquals(plain.res.headers.get("content-encoding"), null);
    const page = new TextDecoder().decode(plain.bytes);
    assert(page.includes("<form"), "the identity page");
    const br = await get(app, "/login", "gzip, deflate, br");
    assertEquals(br.res.headers.get("content-encoding"), "br");
    assertEquals(br.res.headers.get("vary")?.toLowerCase().includes("accept-encoding"), true);
    assert(br.bytes.byteLength < plain.bytes.byteLength / 2, `${br.bytes.byteLength}`);
    // The page carries a per-request CSP nonce: compare everything but it.
    const strip = (s: string) => s.replace(/nonce="[^"]*"/g, "").replace(/[a-f0-9-]{36}/g, "");
    assertEquals(strip(new TextDecoder().decode(brotliDecompressSync(br.bytes))), strip(page));
    const gz = await get(app, "/login", "gzip");
    assertEquals(gz.res.headers.get("content-encoding"), "gzip");
    assertEquals(strip(new TextDecoder().decode(gunzipSync(gz.bytes))), strip(page));
    const bad = await get(app, "/login", "br;q=7");
    assertEquals(bad.res.status, 200);
    assertEquals(bad.res.headers.get("content-encoding"), null);
  },
);

/** Runs a `deno` subcommand in the repository; throws with its stderr when it fails. */
async function denoRun(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: new URL("../", import.meta.url),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

dbTest("the island bundle is served from the copies deno task build made", async (app) => {
  const dir = new URL("../static/build/", import.meta.url);
  // `deno task build` as a deploy runs it (the bundle, then its copies); where the bundle is
  // built already, only the copies' step (esbuild may not download on every runtime).
  const built = await Deno.stat(new URL("islands.js", dir)).then(() => true, () => false);
  await denoRun(
    built ? ["run", "-A", "lib/http/precompress.ts", "static/build"] : ["task", "build"],
  );
  const js = await Deno.readFile(new URL("islands.js", dir));
  const br = await get(app, "/static/build/islands.js", "br, gzip");
  assertEquals(br.res.headers.get("content-encoding"), "br");
  assertEquals(br.res.headers.get("vary"), "accept-encoding");
  assertEquals(new Uint8Array(brotliDecompressSync(br.bytes)), js);
  assertEquals(br.bytes, await Deno.readFile(new URL("islands.js.br", dir)));
  const gz = await get(app, "/static/build/islands.js", "gzip");
  assertEquals(new Uint8Array(gunzipSync(gz.bytes)), js);
  const id = await get(app, "/static/build/islands.js", null);
  assertEquals(id.res.headers.get("content-encoding"), null);
  assertEquals(id.bytes, js);
});
