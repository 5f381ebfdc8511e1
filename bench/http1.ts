/**
 * A minimal HTTP/1.1 GET over a fresh TCP connection, so the harness can send a
 * tenant Host header to 127.0.0.1 (Deno's fetch always derives Host from the URL,
 * and `*.localhost` names do not resolve here).
 */

export type RawResponse = { status: number; headers: Headers; bodyBytes: number };

export async function rawGet(
  base: string,
  path: string,
  host?: string,
  send: Record<string, string> = {},
): Promise<RawResponse> {
  const u = new URL(base);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  try {
    const req = `GET ${path} HTTP/1.1\r\nHost: ${host ?? u.host}\r\nConnection: close\r\n` +
      `User-Agent: cachely-bench\r\n` +
      Object.entries(send).map(([k, v]) => `${k}: ${v}\r\n`).join("") + "\r\n";
    await conn.write(new TextEncoder().encode(req));
    const chunks: Uint8Array[] = [];
    let total = 0;
    const buf = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      total += n;
    }
    const all = new Uint8Array(total);
    let off = 0;
    for (const c of chunks) {
      all.set(c, off);
      off += c.length;
    }
    const text = new TextDecoder("latin1").decode(all);
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) throw new Error(`Malformed response from ${base}${path}`);
    const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
    const headers = new Headers();
    for (const l of lines) {
      const i = l.indexOf(":");
      if (i > 0) headers.append(l.slice(0, i).trim(), l.slice(i + 1).trim());
    }
    return {
      status: Number(statusLine.split(" ")[1]),
      headers,
      bodyBytes: total - end - 4,
    };
  } finally {
    try {
      conn.close();
    } catch { /* closed by peer */ }
  }
}
