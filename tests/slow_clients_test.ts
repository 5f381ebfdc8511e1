/**
 * Slow clients: a request body that stops arriving is answered 408 after the
 * idle timeout and its stream cancelled, while other requests are served meanwhile; 200
 * slow connections against the running program leave a normal request fast.
 * Header timeouts and per-IP connection caps are not reachable from Deno.serve (see
 * docs/operations.md "Slow clients"); the front proxy bounds those.
 */
import { assert, assertEquals } from "./assert.ts";
import { readBodyText } from "../lib/http/validate.ts";
import { ApiError } from "../lib/errors.ts";
import { APP_ORIGIN, createTestApp, serveOnLoopback } from "./harness.ts";

/** A body that sends `first` bytes and then nothing, recording whether it was cancelled. */
function stalledBody(first: number) {
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.enqueue(new Uint8Array(first).fill(65));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

Deno.test("a stalled request body is a 408 after the idle timeout, the stream cancelled", async () => {
  const { body, state } = stalledBody(10);
  const req = new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-length": "100" },
  });
  const t0 = performance.now();
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    readBodyText(req, 1024, 150).then(() => "read", (e) => e),
    new Promise((r) => giveUp = setTimeout(() => r("still waiting after 3 s"), 3_000)),
  ]);
  clearTimeout(giveUp);
  const ms = performance.now() - t0;
  assert(outcome instanceof ApiError, String(outcome));
  assertEquals((outcome as ApiError).status, 408);
  assertEquals((outcome as ApiError).code, "request_timeout");
  assert(ms >= 140 && ms < 2_000, `${ms} ms`);
  assert(state.cancelled, "the body stream is cancelled");
});

// ---- 200 slow connections against the running program ----

const enc = new TextEncoder();

/** Reads what the server sends until it closes the connection or `ms` pass. */
async function readUntilClosed(
  conn: Deno.Conn,
  ms: number,
): Promise<{ text: string; closed: boolean }> {
  const buf = new Uint8Array(4096);
  let text = "";
  const deadline = performance.now() + ms;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) return { text, closed: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const n = await Promise.race([
      conn.read(buf).catch(() => null),
      new Promise<"wait">((r) => timer = setTimeout(() => r("wait"), left)),
    ]);
    clearTimeout(timer);
    if (n === "wait") return { text, closed: false };
    if (n === null) return { text, closed: true };
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
}

Deno.test({
  name:
    "200 slow connections (unfinished heads, stalled bodies) leave others fast; stalled bodies get 408",
  // the unfinished heads stay open until the server shuts down (no header timeout in Deno.serve)
  sanitizeResources: false,
  sanitizeOps: false, // the server ends its side of the 200 held sockets after the test closes them
  async fn() {
    const app = await createTestApp("pglite", { env: { BODY_IDLE_TIMEOUT_MS: "500" } });
    const server = serveOnLoopback(app.handler);
    const open = (): Promise<Deno.Conn> =>
      Deno.connect({ hostname: "127.0.0.1", port: server.port });
    const normal = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/admin/overview`); // anonymous: a 401
      await res.body?.cancel();
      assertEquals(res.status, 401);
      return performance.now() - t0;
    };
    const heads: Deno.Conn[] = [];
    const bodies: Deno.Conn[] = [];
    try {
      await normal(); // warm-up: the first request loads the route modules
      const before: number[] = [];
      for (let i = 0; i < 10; i++) before.push(await normal());
      // 100 heads that never end, 100 bodies that stop after their first bytes
      for (let i = 0; i < 100; i++) {
        const h = await open();
        await h.write(enc.encode(`GET /api/auth/me HTTP/1.1\r\nHost: localhost:8000\r\nX-Slow: `));
        heads.push(h);
        const b = await open();
        await b.write(enc.encode(
          `POST /api/auth/login HTTP/1.1\r\nHost: localhost:8000\r\nOrigin: ${APP_ORIGIN}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`,
        ));
        bodies.push(b);
      }
      const during: number[] = [];
      for (let i = 0; i < 10; i++) during.push(await normal());
      const outcomes = await Promise.all(bodies.map((b) => readUntilClosed(b, 2_000)));
      const answered408 = outcomes.filter((o) => o.text.startsWith("HTTP/1.1 408")).length;
      const max = (xs: number[]) => Math.max(...xs);
      assert(max(during) < 1_000, `with 200 slow connections a request took ${max(during)} ms`);
      assertEquals(answered408, 100);
      // Not asserted: Deno.serve (2.9.6) keeps a connection whose body never completed open
      // after the 408, `Connection: close` or not (docs/decisions.md "Slow clients"); the
      // handler and the body are released, the socket waits for the client.
      // Still answering after the stalled bodies were dropped, the unfinished heads still open:
      assert((await normal()) < 1_000);
    } finally {
      for (const c of [...heads, ...bodies]) {
        try {
          c.close();
        } catch { /* closed by the server */ }
      }
      await server.close();
      await app.close();
    }
  },
});
