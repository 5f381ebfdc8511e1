/**
 * A TCP relay in front of PostgreSQL (or a pooler) that can cut every connection or freeze:
 * frozen, it keeps accepting and holding connections but moves no byte either way until
 * thawed, as a SIGSTOPped pgbouncer or a partition TCP rides out does. A connection opened
 * while frozen completes its login only after the thaw. `freezeOpen()` holds only the
 * connections open now: new ones (a fresh probe) pass, as when a client's own connections
 * are stuck while the database answers others.
 */
export function tcpFreezer(target: URL) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let gate: Promise<void> = Promise.resolve();
  let thaw = () => {};
  const held = new Set<Deno.Conn>(); // frozen by freezeOpen()
  const closeAll = (...xs: Deno.Conn[]) => {
    for (const x of xs) {
      conns.delete(x);
      try {
        x.close();
      } catch { /* closed by its peer */ }
    }
  };
  const pipe = async (a: Deno.Conn, b: Deno.Conn) => {
    const reader = a.readable.getReader();
    const writer = b.writable.getWriter();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        await gate; // frozen: held here until thaw()
        while (held.has(a) || held.has(b)) {
          await gate.then(() => new Promise((r) => setTimeout(r, 50)));
        }
        await writer.write(value);
      }
    } catch {
      /* cut */
    } finally {
      closeAll(a, b);
    }
  };
  (async () => {
    for await (const c of listener) {
      conns.add(c);
      (async () => {
        const up = await Deno.connect({
          hostname: target.hostname,
          port: Number(target.port || 5432),
        }).catch(() => null);
        if (!up) return closeAll(c);
        conns.add(up);
        pipe(c, up);
        pipe(up, c);
      })();
    }
  })().catch(() => {});
  const url = new URL(target);
  url.host = `127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  return {
    url: url.toString(),
    /** Cuts every open connection (new ones are still accepted). */
    cut: () => closeAll(...conns),
    freeze() {
      gate = new Promise((r) => thaw = r);
    },
    freezeOpen() {
      for (const c of conns) held.add(c);
    },
    thaw() {
      held.clear();
      thaw();
      gate = Promise.resolve();
    },
    close() {
      thaw();
      listener.close();
      closeAll(...conns);
    },
  };
}
