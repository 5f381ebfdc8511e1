/**
 * An https: upstream through the HTTP/1.1 client's own connect (Deno.connectTls), in a
 * child process that trusts the test CA (DENO_CERT is read at start-up): the production
 * path, certificate checks included.
 */
import { assertEquals } from "../../tests/assert.ts";

const dir = new URL("../../tests/fixtures/tls/", import.meta.url);
const client = new URL("./client.ts", import.meta.url).href;

async function runClient(url: string, trustTestCa: boolean): Promise<string[]> {
  const script = `
    import { createHttp1Client } from ${JSON.stringify(client)};
    const c = createHttp1Client();
    for (let i = 0; i < 2; i++) {
      const r = await c.request({ url: new URL(${JSON.stringify(url)}), method: "GET",
        headers: [["user-agent", "tls-test"]], maxBuffer: 65536, timeoutMs: 5000 });
      console.log(r.kind === "buffered" ? new TextDecoder().decode(r.body) : r.kind + " " +
        (r.kind === "error" ? r.status : ""));
    }
    c.close();`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: trustTestCa ? { DENO_CERT: new URL("ca.pem", dir).pathname } : {},
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(out.stdout).trim().split("\n");
}

Deno.test("http1: https upstreams over TLS, verified against the trusted roots", async () => {
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(new URL("localhost.pem", dir)),
    key: Deno.readTextFileSync(new URL("localhost.key", dir)),
    onListen() {},
  }, (req) => new Response(`ua=${req.headers.get("user-agent")}`));
  const url = `https://localhost:${server.addr.port}/x`;
  try {
    assertEquals(await runClient(url, true), ["ua=tls-test", "ua=tls-test"]);
    // without the test CA the certificate is refused: 502, never a plain-text fallback
    assertEquals(await runClient(url, false), ["error 502", "error 502"]);
  } finally {
    await server.shutdown();
  }
});
