import { assertEquals, assertRejects } from "../tests/assert.ts";
import { cdp } from "./inspector.ts";

/**
 * A WebSocket speaking the inspector's protocol on 127.0.0.1: `Echo` answers its params,
 * `Refuse` answers an error as V8 does, `Hang` never answers and `Die` closes the socket.
 */
function fakeInspector() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.method === "Echo") socket.send(JSON.stringify({ id: m.id, result: m.params }));
      if (m.method === "Refuse") {
        socket.send(JSON.stringify({ id: m.id, error: { code: -32601, message: "not found" } }));
      }
      if (m.method === "Die") socket.close();
    };
    return response;
  });
  return { url: `ws://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

Deno.test("cdp: a result resolves, a refused command rejects with the inspector's error", async () => {
  const inspector = fakeInspector();
  const c = cdp(inspector.url);
  try {
    assertEquals(await c.send("Echo", { a: 1 }), { a: 1 });
    const e = await assertRejects(() => c.send("Refuse"));
    assertEquals((e as Error).message, "CDP -32601: not found");
  } finally {
    c.close();
    await inspector.close();
  }
});

Deno.test("cdp: when the socket closes, waiting and later commands reject", async () => {
  const inspector = fakeInspector();
  const c = cdp(inspector.url);
  try {
    const hanging = c.send("Hang");
    await c.send("Die").catch(() => {});
    const e = await assertRejects(() => hanging);
    assertEquals((e as Error).message.startsWith("inspector socket closed"), true);
    await assertRejects(() => c.send("Echo"));
  } finally {
    await inspector.close();
  }
});
