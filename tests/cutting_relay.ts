/**
 * A TCP relay in front of PostgreSQL that, while `cutting`, ends every connection after a
 * random number of bytes (either way, 0 to `maxBytes`): mid-message, mid-transaction, during a
 * login. Some cuts half-close first (the client sees its read side end, then the reset). What
 * a pooler restart, a load balancer's idle cut or a flaky path do to a client, at every offset.
 */
export function cuttingRelay(target: URL, maxBytes = 8_000) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const budgets = new Map<Deno.Conn, { left: number }>();
  let cutting = false;
  let cuts = 0;
  const close = (...xs: Deno.Conn[]) => {
    for (const x of xs) {
      budgets.delete(x);
      try {
        x.close();
      } catch { /* closed by its peer */ }
    }
  };
  const budget = () => ({ left: Math.floor(Math.random() * maxBytes) });
  const pipe = async (a: Deno.Conn, b: Deno.Conn, shared: { left: number }) => {
    const reader = a.readable.getReader();
    const writer = b.writable.getWriter();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (cutting && shared.left < value.length) {
          if (shared.left > 0) await writer.write(value.subarray(0, shared.left));
          if (Math.random() < 0.3) await writer.close().catch(() => {}); // half-close first
          cuts++;
          break;
        }
        if (cutting) shared.left -= value.length;
        await writer.write(value);
      }
    } catch {
      /* cut */
    } finally {
      close(a, b);
    }
  };
  (async () => {
    for await (const client of listener) {
      Deno.connect({ hostname: target.hostname, port: Number(target.port || 5432) }).then(
        (server) => {
          const shared = budget();
          budgets.set(client, shared);
          pipe(client, server, shared);
          pipe(server, client, shared);
        },
        () => close(client),
      );
    }
  })().catch(() => {});
  const url = new URL(target);
  url.host = `127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return {
    url: url.toString(),
    get cuts() {
      return cuts;
    },
    /** From now on every connection, open or new, ends within `maxBytes` more. */
    startCutting() {
      for (const b of budgets.values()) b.left = budget().left;
      cutting = true;
    },
    stopCutting() {
      cutting = false;
    },
    close() {
      listener.close();
      close(...budgets.keys());
    },
  };
}
