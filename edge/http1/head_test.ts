import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import { latin1, MAX_HEADER_LINES, parseResponseHead, ProtocolError } from "./head.ts";

const enc = new TextEncoder();
const parse = (head: string, isHead = false) => parseResponseHead(enc.encode(head), isHead);
const refused = (head: string) => {
  const e = assertThrows(() => parse(head));
  assert(e instanceof ProtocolError, `${JSON.stringify(head)}: ${e}`);
};

Deno.test("a response head: status, fields in order with lower-case names, length framing", () => {
  const h = parse(
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A:  1 \r\nx-a: 2\r\n" +
      "Content-Length: 12",
  );
  assertEquals(h.status, 200);
  assertEquals(h.headers, [["content-type", "application/json"], ["x-a", "1"], ["x-a", "2"], [
    "content-length",
    "12",
  ]]);
  assertEquals(h.framing, { kind: "length", length: 12 });
  assertEquals(h.reusable, true);
});

Deno.test("framing: chunked, until close, none for HEAD, 1xx, 204 and 304", () => {
  assertEquals(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked").framing, { kind: "chunked" });
  const close = parse("HTTP/1.1 200 OK\r\ncontent-type: text/plain");
  assertEquals(close.framing, { kind: "close" });
  assertEquals(close.reusable, false);
  assertEquals(parse("HTTP/1.1 200 OK\r\ncontent-length: 5", true).framing, { kind: "none" });
  assertEquals(parse("HTTP/1.1 204 No Content").framing, { kind: "none" });
  assertEquals(parse("HTTP/1.1 304 Not Modified\r\ncontent-length: 5").framing, { kind: "none" });
  assertEquals(parse("HTTP/1.1 103 Early Hints\r\nlink: </a>").framing, { kind: "none" });
  assertEquals(parse("HTTP/1.1 200").status, 200); // a reason phrase is optional
});

Deno.test("framing: a 205 without a length has no body (not read until close)", () => {
  const h = parse("HTTP/1.1 205 Reset Content\r\ndate: Thu, 26 Nov 2026 06:54:31 GMT");
  assertEquals([h.framing, h.reusable], [{ kind: "none" }, true]);
  assertEquals(parse("HTTP/1.1 205 Reset Content\r\ncontent-length: 0").framing, {
    kind: "length",
    length: 0,
  });
});

Deno.test("keep-alive: Connection: close and HTTP/1.0 end the connection", () => {
  assertEquals(
    parse("HTTP/1.1 200 OK\r\nconnection: Keep-Alive, close\r\ncontent-length: 0").reusable,
    false,
  );
  assertEquals(parse("HTTP/1.0 200 OK\r\ncontent-length: 0").reusable, false);
  assertEquals(
    parse("HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 0").reusable,
    true,
  );
});

Deno.test("Content-Length lists of one value are one length; conflicting ones are refused", () => {
  assertEquals(parse("HTTP/1.1 200 OK\r\ncontent-length: 7, 7\r\ncontent-length: 7").framing, {
    kind: "length",
    length: 7,
  });
  refused("HTTP/1.1 200 OK\r\ncontent-length: 7\r\ncontent-length: 8");
  refused("HTTP/1.1 200 OK\r\ncontent-length: 7, 8");
  refused("HTTP/1.1 200 OK\r\ncontent-length: -1");
  refused("HTTP/1.1 200 OK\r\ncontent-length: 0x10");
  refused("HTTP/1.1 200 OK\r\ncontent-length: 1234567890123456");
});

Deno.test("chunked next to a length wins, and the connection is never reused (smuggling)", () => {
  const h = parse("HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked");
  assertEquals(h.framing, { kind: "chunked" });
  assertEquals(h.reusable, false);
});

Deno.test("transfer codings other than a final chunked are refused", () => {
  refused("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip");
  refused("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked");
  refused("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked, chunked");
  refused("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntransfer-encoding: chunked");
  refused("HTTP/1.1 200 OK\r\ntransfer-encoding: identity");
});

Deno.test("malformed heads are refused, never guessed at", () => {
  refused("garbage garbage");
  refused("HTTP/2 200 OK");
  refused("HTTP/1.1 20 OK");
  refused("HTTP/1.1 099 Too Low");
  refused("HTTP/1.1 200 OK\r\ncontent-type : text/plain"); // space before the colon
  refused("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n folded"); // obs-fold
  refused("HTTP/1.1 200 OK\r\n: no name");
  refused("HTTP/1.1 200 OK\r\nno colon");
  refused("HTTP/1.1 200 OK\r\nx-a: 1\nx-b: 2"); // bare LF
  refused("HTTP/1.1 200 OK\r\nx-a: 1\rx-b: 2"); // bare CR
  refused("HTTP/1.1 200 OK\r\nx-a: a\0b");
  refused("HTTP/1.1 200 OK\nx-a: 1");
  const many = Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => `x-${i}: v`).join("\r\n");
  refused(`HTTP/1.1 200 OK\r\n${many}`);
});

Deno.test("header values keep bytes above 0x7f as the same code units (ByteString)", () => {
  const bytes = new Uint8Array([...enc.encode("HTTP/1.1 200 OK\r\nx-a: "), 0xe9, 0x80]);
  assertEquals(parseResponseHead(bytes, false).headers, [["x-a", "\u00e9\u0080"]]);
  assertEquals(latin1(new Uint8Array([0x41, 0xff])), "A\u00ff");
});

Deno.test("random bytes and mutations of a valid head only ever fail with ProtocolError", () => {
  const valid = enc.encode(
    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n" +
      "transfer-encoding: chunked\r\nconnection: keep-alive",
  );
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabet = [0, 9, 10, 13, 32, 44, 45, 48, 58, 59, 65, 97, 127, 128, 255];
  for (let i = 0; i < 5000; i++) {
    const b = i % 2 ? valid.slice() : new Uint8Array(Math.floor(rnd() * 80));
    for (let k = 0; k < 1 + rnd() * 4; k++) {
      b[Math.floor(rnd() * b.length)] = alphabet[Math.floor(rnd() * alphabet.length)];
    }
    try {
      const h = parseResponseHead(b, false);
      assert(h.status >= 100 && h.status <= 999);
      if (h.framing.kind === "length") assert(Number.isSafeInteger(h.framing.length));
    } catch (e) {
      assert(e instanceof ProtocolError, String(e));
    }
  }
});
