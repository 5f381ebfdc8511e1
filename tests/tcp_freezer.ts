/**
 * A TCP relay in front of PostgreSQL (or a pooler) that can cut every connection or freeze:
 * frozen, it keeps accepting and holding connections but moves no byte either way until
 * thawed, as a SIGSTOPped pgbouncer or a partition TCP rides out does. A connection opened
 * while frozen completes its login only after the thaw. `freezeOpen()` holds only the
 * connections open now: new ones (a fresh probe) pass, as when a client's own connections
 * are stuck while the database answers others. `startCutting(maxBytes)` ends every
 * connection, open or new, after a random number of bytes (either way, 0 to maxBytes):
 * mid-message, mid-transaction, mid-login, some half-closed first, as a pooler restart, an
 * idle cut or a flaky path do, at every offset. `listenOn` ("::1" for an IPv6 URL) is where
 * the relay itself listens.
 */
export function tcpFreezer(target: URL, listenOn = "127.0.0.1") {
  const listener = Deno.listen({ hostname: listenOn, port: 0 });
  const conns = new Set<Deno.Conn>();
  let gate: Promise<void> = Promise.resolve();
  let thaw = () => {};
  const held = new Set<Deno.Conn>(); // frozen by freezeOpen()
  /** While cutting: bytes each connection (both ways together) has left. */
  const budgets = new Map<Deno.Conn, { left: number }>();
  let cutMax = 0; // 0: not cutting
  let cuts = 0;
  const budget = () => ({ left: Math.floor(Math.random() * cutMax) });
  const closeAll = (...xs: Deno.Conn[]) => {
    for (const x of xs) {
      conns.delete(x);
      try {
        x.close();
      } catch { /* closed by its peer */ }
    }
  };
  const pipe = async (a: Deno.Conn, b: Deno.Conn, left: { left: number }) => {
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
        if (cutMax > 0 && left.left < value.length) {
          if (left.left > 0) await writer.write(value.subarray(0, left.left));
          if (Math.random() < 0.3) await writer.close().catch(() => {}); // half-close first
          cuts++;
          break;
        }
        if (cutMax > 0) left.left -= value.length;
        await writer.write(value);
      }
    } catch {
      /* cut */
    } finally {
      budgets.delete(a);
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
        const left = budget();
        budgets.set(c, left);
        pipe(c, up, left);
        pipe(up, c, left);
      })();
    }
  })().catch(() => {});
  const url = new URL(target);
  const host = listenOn.includes(":") ? `[${listenOn}]` : listenOn; // an IPv6 address in brackets
  url.host = `${host}:${(listener.addr as Deno.NetAddr).port}`;
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
    /** From now on every connection, open or new, ends within `maxBytes` more bytes. */
    startCutting(maxBytes: number) {
      cutMax = maxBytes;
      for (const b of budgets.values()) b.left = budget().left;
    },
    stopCutting() {
      cutMax = 0;
    },
    /** Connections ended by the cutting so far. */
    get cuts() {
      return cuts;
    },
    close() {
      thaw();
      listener.close();
      closeAll(...conns);
    },
  };
}
