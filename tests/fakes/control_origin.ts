/**
 * A raw TCP origin whose answers carry a control byte in header values (a Deno.serve origin
 * cannot: on Deno 2.9 its own writer would panic). A request for `/h/<hex>/…` is answered
 * with the byte, written as is, inside the value of every header in BYTE_HEADERS (the ones
 * the edge stores, replays, merges or reads: validators, dates, links, tags, CORS, CDN
 * cache controls, a content-type parameter); only Set-Cookie is left out, because an answer
 * with one is never stored and the stored path is the one to prove; the content type follows the extension (.jpg, .mp4, else JSON, or HTML
 * below `/site/`). A `Range: bytes=a-b` gets a 206 cut from a 100-byte body (slices).
 */
export type ControlOrigin = { url: string; requests: number; close(): void };

/** Each header's value with `@` where the control byte goes. */
const BYTE_HEADERS = [
  "x-a: a@b",
  "content-disposition: attachment; filename=a@b",
  'etag: "a@b"',
  "last-modified: Tue, 01 Jan 2030 00:00:00 G@MT",
  "expires: Tue, 01 Jan 2030 00:00:00 G@MT",
  "link: </a@b>; rel=preload",
  "location: /a@b",
  "cache-tag: a@b",
  "surrogate-key: a@b",
  "vary: x-a@b",
  "content-language: e@n",
  "x-robots-tag: no@index",
  "access-control-allow-origin: *@",
  "cdn-cache-control: max-age=60@",
  "surrogate-control: max-age=60@",
];

const enc = new TextEncoder();
const dec = new TextDecoder("latin1");
const SIZE = 100;

export function startControlOrigin(): ControlOrigin {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const origin: ControlOrigin = {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    requests: 0,
    close() {
      listener.close();
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
  (async () => {
    for await (const conn of listener) {
      open.add(conn);
      answer(conn).catch(() => {}).finally(() => {
        open.delete(conn);
        try {
          conn.close();
        } catch { /* closed */ }
      });
    }
  })().catch(() => {});

  async function answer(conn: Deno.Conn) {
    let head = "";
    const buf = new Uint8Array(8192);
    while (!head.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) return;
      head += dec.decode(buf.subarray(0, n));
    }
    origin.requests++;
    const target = head.split(" ")[1] ?? "/";
    const m = /\/h\/([0-9a-f]{2})\//i.exec(target);
    const byte = m ? String.fromCharCode(parseInt(m[1], 16)) : "";
    const type = target.includes(".jpg")
      ? "image/jpeg"
      : target.includes(".mp4")
      ? "video/mp4"
      : target.includes("/site/")
      ? "text/html"
      : "application/json";
    const body = type === "application/json" ? '{"ok":true}'.padEnd(SIZE) : "x".repeat(SIZE);
    const range = /\r\nrange:\s*bytes=(\d+)-(\d*)/i.exec(head);
    let status = "200 OK";
    let part = body;
    let extra = "";
    if (range) {
      const a = Number(range[1]);
      const b = Math.min(range[2] ? Number(range[2]) : SIZE - 1, SIZE - 1);
      status = "206 Partial Content";
      part = body.slice(a, b + 1);
      extra = `content-range: bytes ${a}-${b}/${SIZE}\r\n`;
    }
    const bytes = new Uint8Array([
      ...enc.encode(`HTTP/1.1 ${status}\r\n${extra}`),
      ...latin1(`content-type: ${type}${byte ? `; x=a${byte}b` : ""}\r\n`),
      ...latin1(BYTE_HEADERS.map((h) => `${h.replace("@", byte)}\r\n`).join("")),
      ...enc.encode(`cache-control: max-age=60\r\nconnection: close\r\n`),
      ...enc.encode(`content-length: ${part.length}\r\n\r\n${part}`),
    ]);
    await conn.write(bytes);
  }
  return origin;
}

function latin1(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
