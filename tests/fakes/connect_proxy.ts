/**
 * An HTTP CONNECT proxy on loopback that tunnels every CONNECT to one of `hosts` to a local
 * TLS server (refusing other hosts with 403): real processes started with
 * `HTTPS_PROXY=<url>` and `DENO_CERT=<the server's CA>` reach provider hosts
 * (`api.storyblok.com`, …) on a fake, by name, over real TLS. Counts the tunnels per host.
 */
type ConnectProxy = {
  url: string;
  tunnels: Map<string, number>;
  close(): void;
};

const HEAD_MAX = 8192;

async function readHead(conn: Deno.Conn): Promise<string | null> {
  const buf = new Uint8Array(HEAD_MAX);
  let len = 0;
  const dec = new TextDecoder();
  while (len < HEAD_MAX) {
    const n = await conn.read(buf.subarray(len));
    if (n === null) return null;
    len += n;
    const text = dec.decode(buf.subarray(0, len));
    // CONNECT has no body: the client waits for our answer before sending more
    if (text.includes("\r\n\r\n")) return text;
  }
  return null;
}

export function startConnectProxy(hosts: readonly string[], tlsPort: number): ConnectProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const tunnels = new Map<string, number>();
  const conns = new Set<Deno.Conn>();
  const enc = new TextEncoder();
  const serve = async (conn: Deno.Conn) => {
    conns.add(conn);
    try {
      const head = await readHead(conn);
      const m = head ? /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]\r\n/i.exec(head) : null;
      const host = m?.[1].toLowerCase() ?? "";
      if (!m || !hosts.includes(host)) {
        await conn.write(enc.encode("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"));
        conn.close();
        return;
      }
      const up = await Deno.connect({ hostname: "127.0.0.1", port: tlsPort });
      conns.add(up);
      tunnels.set(host, (tunnels.get(host) ?? 0) + 1);
      await conn.write(enc.encode("HTTP/1.1 200 Connection established\r\n\r\n"));
      await Promise.allSettled([
        conn.readable.pipeTo(up.writable),
        up.readable.pipeTo(conn.writable),
      ]);
      conns.delete(up);
    } catch {
      try {
        conn.close();
      } catch { /* closed by its peer */ }
    }
    conns.delete(conn);
  };
  (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    tunnels,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed by its peer */ }
      }
    },
  };
}
