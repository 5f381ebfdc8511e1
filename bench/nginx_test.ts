/**
 * The bench's nginx with `gzip: true` (bench/nginx.ts): its configuration passes `nginx -t`
 * (startNginx runs it first), a JSON hit goes out gzip to a client that accepts it and identity
 * to one that does not. Skipped when nginx is not installed.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { startNginx } from "./nginx.ts";
import { rawGet } from "./http1.ts";
import { cmsList } from "./cms_list.ts";

const installed = (() => {
  try {
    new Deno.Command("nginx", { args: ["-v"], stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "nginx with gzip on compresses a cached JSON answer per request",
  ignore: !installed,
  async fn() {
    const body = cmsList();
    const origin = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      // no-transform: Deno 2.5's server would gzip it itself for nginx's Accept-Encoding
      // (and it adds Vary: Accept-Encoding, so nginx keeps one entry per Accept-Encoding)
      () =>
        new Response(body, {
          headers: { "content-type": "application/json", "cache-control": "no-transform" },
        }),
    );
    const tmp = await Deno.makeTempDir({ prefix: "cachely-nginx-test-" });
    const nginx = await startNginx(tmp, origin.addr.port, { gzip: true });
    try {
      const base = `http://127.0.0.1:${nginx.port}`;
      const plain = await rawGet(base, "/entries");
      assertEquals(plain.headers.get("content-encoding"), null);
      await rawGet(base, "/entries", undefined, { "accept-encoding": "gzip" });
      const gz = await rawGet(base, "/entries", undefined, { "accept-encoding": "gzip" });
      assertEquals(gz.headers.get("x-cache"), "HIT");
      assertEquals(gz.headers.get("content-encoding"), "gzip");
      assert(gz.bodyBytes < body.length / 2, `${gz.bodyBytes} bytes`);
    } finally {
      await nginx.stop();
      await origin.shutdown();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});
