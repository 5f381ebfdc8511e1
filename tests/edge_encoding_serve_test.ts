/**
 * The program decides every encoding itself, behind a real Deno.serve on either runtime: a
 * stored br copy reaches the client as it is (decoding once gives the identity bytes, so the
 * runtime did not compress it again), and an answer the edge leaves identity stays identity
 * (Deno 2.5's Deno.serve would otherwise gzip it on its own, per answer).
 */
import { brotliDecompressSync } from "node:zlib";
import { assertEquals } from "./assert.ts";
import { edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { encodingsSettled } from "../edge/cache/variants.ts";

/** One raw HTTP/1.1 GET (fetch would decode the body and hide Content-Encoding). */
async function rawGet(port: number, path: string, ae: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const req =
    `GET ${path} HTTP/1.1\r\nhost: x\r\naccept-encoding: ${ae}\r\nconnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(req));
  const chunks: Uint8Array[] = [];
  for await (const c of conn.readable) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let o = 0;
  for (const c of chunks) all.set(c, (o += c.byteLength) - c.byteLength);
  let end = 0;
  while (!(all[end] === 13 && all[end + 1] === 10 && all[end + 2] === 13 && all[end + 3] === 10)) {
    end++;
  }
  const head = new TextDecoder().decode(all.subarray(0, end)).toLowerCase();
  const header = (n: string) => new RegExp(`^${n}: (.*)$`, "m").exec(head)?.[1].trim() ?? null;
  return { header, body: all.subarray(end + 4) };
}

Deno.test("behind Deno.serve: br copies pass as they are, identity answers stay identity", async () => {
  const up = startUpstream();
  const big = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, t: "x" })) });
  up.route("/big", () => new Response(big, { headers: { "content-type": "application/json" } }));
  up.route("/small", () => Response.json({ id: 1, title: "a short answer, under 512 bytes" }));
  const fx = await edgeFixture(up.url);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const u = new URL(req.url);
      return fx.request(u.pathname + u.search, { headers: req.headers });
    },
  );
  try {
    const port = server.addr.port;
    await (await rawGet(port, "/~api/big", "identity")).body;
    // the first hit goes out identity (its copies are queued), on 2.5 too (no-transform)
    const first = await rawGet(port, "/~api/big", "gzip, br");
    assertEquals(first.header("content-encoding"), null);
    assertEquals(new TextDecoder().decode(first.body), big);
    await encodingsSettled();
    const br = await rawGet(port, "/~api/big", "gzip, br");
    assertEquals(br.header("content-encoding"), "br");
    assertEquals(new TextDecoder().decode(brotliDecompressSync(br.body)), big);
    const id = await rawGet(port, "/~api/big", "identity;q=1, gzip;q=0.5");
    assertEquals(id.header("content-encoding"), null);
    assertEquals(new TextDecoder().decode(id.body), big);
    for (let i = 0; i < 3; i++) {
      const small = await rawGet(port, "/~api/small", "gzip, br");
      assertEquals(small.header("content-encoding"), null, `small, request ${i}`);
    }
  } finally {
    await server.shutdown();
    fx.close();
    await up.close();
  }
});
