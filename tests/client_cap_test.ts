/**
 * Slow clients: one public address can keep at most CLIENT_MAX_PENDING
 * requests waiting; the next is a 429 at once, while another address is served as usual.
 * Real process (`deno run -A main.ts`, PGlite), raw sockets that send their headers and
 * then trickle nothing of the body they announced.
 */
import { assertEquals } from "./assert.ts";
import { startInstance, stop } from "./instances.ts";

const enc = new TextEncoder();

/** Sends a POST's headers and 2 of its 100 body bytes, then nothing. */
async function stalledPost(port: number, client: string): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(enc.encode(
    `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: ${client}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"`,
  ));
  return conn;
}

async function getStatus(port: number, client: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "x-forwarded-for": client, "content-type": "application/json" },
    body: "{}",
  });
  await r.body?.cancel();
  return { status: r.status, ms: Math.round(performance.now() - t0) };
}

/** Asks until the answer is `status` (at most 20 s): the last answer. */
async function until(ask: () => Promise<{ status: number; ms: number }>, status: number) {
  const t0 = performance.now();
  let last = await ask();
  while (last.status !== status && performance.now() - t0 < 20_000) {
    await new Promise((r) => setTimeout(r, 100));
    last = await ask();
  }
  return last;
}

Deno.test({
  name: "a client address past CLIENT_MAX_PENDING waiting requests gets 429; others are served",
  sanitizeResources: false, // the instance's pipes close after the test's own stop()
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const inst = await startInstance({
      DATA_DIR: dir,
      CLIENT_MAX_PENDING: "5",
      TRUSTED_PROXY_IP_HEADER: "x-forwarded-for",
      TRUSTED_PROXY_HOPS: "1",
    });
    const stalled: Deno.TcpConn[] = [];
    try {
      for (let i = 0; i < 5; i++) stalled.push(await stalledPost(inst.port, "8.8.8.8"));
      // Their handlers start waiting on the body when the server gets to them (later under
      // load): a complete request in the meantime is answered 400 and waits for nothing.
      const capped = await until(() => getStatus(inst.port, "8.8.8.8"), 429);
      assertEquals(capped.status, 429, "the sixth from the same address");
      const other = await getStatus(inst.port, "8.8.4.4");
      assertEquals(other.status, 400, "another address is answered as usual (an empty log-in)");
      const loopback = await getStatus(inst.port, "127.0.0.1"); // own network: never capped
      assertEquals(loopback.status, 400);
      console.log(`client_cap_test: 429 in ${capped.ms} ms; another address in ${other.ms} ms`);
      for (const c of stalled.splice(0)) c.close();
      const again = await until(() => getStatus(inst.port, "8.8.8.8"), 400);
      assertEquals(again.status, 400, "served again");
    } finally {
      for (const c of stalled) c.close();
      await stop(inst);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
