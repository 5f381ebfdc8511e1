import { assert, assertEquals, assertStringIncludes } from "../../tests/assert.ts";
import { ok, startScriptedUpstream, type Step } from "../../tests/fakes/scripted_upstream.ts";
import { createHttp1Client, requestBytes } from "./client.ts";
import { ACCEPT_ENCODING } from "./decode.ts";
import type { UpstreamCall, UpstreamResult } from "../../lib/net/upstream_types.ts";
import zlib from "node:zlib";

const dec = new TextDecoder();

function call(url: string, over: Partial<UpstreamCall> = {}): UpstreamCall {
  return {
    url: new URL(url),
    method: "GET",
    headers: [["accept", "application/json"], ["user-agent", "test"]],
    maxBuffer: 1024 * 1024,
    timeoutMs: 2_000,
    ...over,
  };
}

async function bodyText(r: UpstreamResult): Promise<string> {
  if (r.kind === "buffered") return dec.decode(r.body);
  if (r.kind === "stream") return r.body ? await new Response(r.body).text() : "";
  throw new Error(`failed: ${r.code} ${r.message}`);
}

/** One client and one scripted upstream per test, both closed afterwards. */
async function withUpstream(
  answer: (req: { target: string; conn: number; head: string }, n: number) => Step[],
  test: (
    up: ReturnType<typeof startScriptedUpstream>,
    client: ReturnType<typeof createHttp1Client>,
  ) => Promise<void>,
  opts: Parameters<typeof createHttp1Client>[0] = {},
) {
  const up = startScriptedUpstream(answer);
  const client = createHttp1Client(opts);
  try {
    await test(up, client);
  } finally {
    client.close();
    up.close();
  }
}

Deno.test("http1: a Content-Length body, filtered headers, and the connection kept alive", async () => {
  await withUpstream((r) => [ok(`{"path":"${r.target}"}`, {
    "content-type": "application/json",
    "set-cookie": "s=1",
    "x-kept": "yes",
  })], async (up, client) => {
    const a = await client.request(call(`${up.url}/a?x=1`));
    assertEquals(a.kind, "buffered");
    if (a.kind !== "buffered") return;
    assertEquals(a.status, 200);
    assertEquals(dec.decode(a.body), '{"path":"/a?x=1"}');
    assertEquals(a.body.buffer.byteLength, a.body.byteLength); // owns exactly its bytes
    assertEquals(a.setCookie, true);
    assertEquals(a.headers, [["content-type", "application/json"], ["x-kept", "yes"]]);
    assertEquals(await bodyText(await client.request(call(`${up.url}/b`))), '{"path":"/b"}');
    assertEquals(up.connections, 1);
    assertEquals(up.seen.map((s) => s.conn), [1, 1]);
    const head = up.seen[0].head.toLowerCase();
    assertStringIncludes(head, `host: 127.0.0.1:${up.port}`);
    assertStringIncludes(head, `accept-encoding: ${ACCEPT_ENCODING}`);
    assertStringIncludes(head, "user-agent: test");
  });
});

Deno.test("http1: chunked bodies with extensions and trailers; close-delimited bodies", async () => {
  await withUpstream((r) =>
    r.target === "/chunked"
      ? [
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
        "5;ext=1\r\nhello\r\n",
        { waitMs: 5 },
        "7\r\n, world\r\n0\r\nx-trailer: t\r\n\r\n",
      ]
      : [
        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil ",
        { waitMs: 5 },
        "the end",
        "close",
      ], async (up, client) => {
    assertEquals(await bodyText(await client.request(call(`${up.url}/chunked`))), "hello, world");
    assertEquals(await bodyText(await client.request(call(`${up.url}/chunked`))), "hello, world");
    assertEquals(up.connections, 1); // chunked ends cleanly: reused
    assertEquals(await bodyText(await client.request(call(`${up.url}/close`))), "until the end");
    await client.request(call(`${up.url}/chunked`));
    assertEquals(up.connections, 2); // a close-delimited body ends the connection
  });
});

Deno.test("http1: HEAD, 204 and 304 have no body; 1xx interim responses are skipped", async () => {
  await withUpstream(
    (r) =>
      r.target === "/204"
        ? ["HTTP/1.1 204 No Content\r\n\r\n"]
        : r.target === "/304"
        ? ['HTTP/1.1 304 Not Modified\r\netag: "a"\r\ncontent-length: 99\r\n\r\n']
        : r.target === "/early"
        ? [
          "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n",
          ok("after"),
        ]
        : [ok("not sent for HEAD").replace(/\r\n\r\n.*$/s, "\r\n\r\n")],
    async (up, client) => {
      const h = await client.request(call(`${up.url}/head`, { method: "HEAD" }));
      assertEquals(h.kind === "buffered" && h.body.byteLength, 0);
      const n = await client.request(call(`${up.url}/204`));
      assertEquals([n.kind, n.kind !== "error" && n.status], ["buffered", 204]);
      const nm = await client.request(call(`${up.url}/304`));
      assertEquals(nm.kind !== "error" && nm.status, 304);
      assertEquals(await bodyText(await client.request(call(`${up.url}/early`))), "after");
      assertEquals(up.connections, 1);
    },
  );
});

Deno.test("http1: broken responses are 502, truncated bodies are never whole", async () => {
  const answers: Record<string, Step[]> = {
    "/garbage": ["garbage garbage\r\n\r\n"],
    "/fold": ["HTTP/1.1 200 OK\r\nx-a: 1\r\n folded\r\ncontent-length: 0\r\n\r\n"],
    "/two-lengths": ["HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab"],
    "/te-gzip": ["HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nxx"],
    "/short": ['HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n{"partial":', "close"],
    "/short-chunk": ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n10\r\nabc", "close"],
    "/bad-chunk": ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"],
    "/no-crlf": ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n"],
    "/half-head": ["HTTP/1.1 200 OK\r\ncontent-le", "close"],
    "/huge-head": [`HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`],
    "/zstd": ["HTTP/1.1 200 OK\r\ncontent-encoding: zstd\r\ncontent-length: 2\r\n\r\nxx"],
    "/switch": ["HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\n\r\n"],
    "/silent": ["close"],
  };
  await withUpstream((r) => answers[r.target], async (up, client) => {
    for (
      const [path, want] of Object.entries({
        "/garbage": "Upstream sent a malformed response",
        "/fold": "Upstream sent a malformed response",
        "/two-lengths": "Upstream sent a malformed response",
        "/te-gzip": "Upstream sent a malformed response",
        "/short": "Upstream closed early",
        "/short-chunk": "Upstream closed early",
        "/bad-chunk": "Upstream sent a malformed response",
        "/no-crlf": "Upstream sent a malformed response",
        "/half-head": "Upstream closed early",
        "/huge-head": "Upstream sent a malformed response",
        "/zstd": "Upstream sent a malformed response",
        "/switch": "Upstream sent a malformed response",
        "/silent": "Upstream sent a malformed response",
      })
    ) {
      const r = await client.request(call(up.url + path));
      assert(r.kind === "error", `${path}: ${r.kind}`);
      assertEquals([r.status, r.message], [502, want], path);
    }
  });
});

Deno.test("http1: a request that cannot be written safely is never sent", async () => {
  await withUpstream(() => [ok("x")], async (up, client) => {
    const bad = await client.request(call(`${up.url}/a`, { headers: [["x-a", "1\r\nx-b: 2"]] }));
    assertEquals(bad.kind, "error");
    const badName = await client.request(call(`${up.url}/a`, { headers: [["x a", "1"]] }));
    assertEquals(badName.kind, "error");
    assertEquals(up.seen.length, 0);
  });
  // the target is what URL serialises: spaces and controls are percent-encoded
  const bytes = new TextDecoder().decode(
    requestBytes(call("http://127.0.0.1:1/a b?q=\u0001x", { headers: [] })),
  );
  assertEquals(bytes.split("\r\n")[0], "GET /a%20b?q=%01x HTTP/1.1");
});

Deno.test("http1: the deadline covers the head and a buffered body: 504", async () => {
  await withUpstream(
    (r) =>
      r.target === "/hang"
        ? ["hang"]
        : ["HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc", "hang"],
    async (up, client) => {
      for (const path of ["/hang", "/stall-body"]) {
        const t0 = performance.now();
        const r = await client.request(call(up.url + path, { timeoutMs: 200 }));
        const took = performance.now() - t0;
        assert(r.kind === "error");
        assertEquals([r.status, r.code], [504, "upstream_timeout"], path);
        assert(took >= 190 && took < 1_000, `${path}: ${took} ms`);
      }
    },
  );
});

Deno.test("http1: a connect that hangs past the deadline is 504", async () => {
  const client = createHttp1Client({
    connect: () => new Promise<Deno.Conn>(() => {}),
  });
  try {
    const r = await client.request(call("http://10.255.255.1:81/x", { timeoutMs: 150 }));
    assertEquals(r.kind === "error" && r.status, 504);
  } finally {
    client.close();
  }
});

Deno.test("http1: a kept-alive connection the server closed is retried once on a new one", async () => {
  // every response is followed by the server closing: the pooled connection is dead
  await withUpstream(() => [ok("fresh"), { waitMs: 5 }, "close"], async (up, client) => {
    assertEquals(await bodyText(await client.request(call(`${up.url}/1`))), "fresh");
    await new Promise((r) => setTimeout(r, 30));
    assertEquals(await bodyText(await client.request(call(`${up.url}/2`))), "fresh");
    assertEquals(up.connections, 2);
  });
  // but a response that fails after bytes arrived is not retried
  await withUpstream(
    (_r, n) => n === 1 ? [ok("one")] : ["HTTP/1.1 200 OK\r\ncontent-le", "close"],
    async (up, client) => {
      await client.request(call(`${up.url}/1`));
      const r = await client.request(call(`${up.url}/2`));
      assertEquals(r.kind, "error");
      assertEquals(up.seen.length, 2);
    },
  );
});

Deno.test("http1: bytes after a complete response end the connection instead of being reused", async () => {
  await withUpstream(
    () => [ok("one") + "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nevil!"],
    async (up, client) => {
      assertEquals(await bodyText(await client.request(call(`${up.url}/1`))), "one");
      assertEquals(await bodyText(await client.request(call(`${up.url}/2`))), "one");
      assertEquals(up.connections, 2);
    },
  );
});

Deno.test("http1: idle connections are closed after idleMs instead of reused", async () => {
  await withUpstream(() => [ok("x")], async (up, client) => {
    await client.request(call(`${up.url}/1`));
    await new Promise((r) => setTimeout(r, 120));
    await client.request(call(`${up.url}/2`));
    assertEquals(up.connections, 2);
  }, { idleMs: 50 });
});

Deno.test("http1: bodies over the bound stream through whole, declared or chunked", async () => {
  const big = "v".repeat(300_000);
  await withUpstream((r) =>
    r.target === "/declared" ? [ok(big)] : [
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
      ...Array.from({ length: 30 }, () => `2710\r\n${"c".repeat(10_000)}\r\n`),
      "0\r\n\r\n",
    ], async (up, client) => {
    const d = await client.request(call(`${up.url}/declared`, { maxBuffer: 1000 }));
    assertEquals(d.kind === "stream" && d.length, 300_000);
    assertEquals(await bodyText(d), big);
    const c = await client.request(call(`${up.url}/chunked`, { maxBuffer: 1000 }));
    assertEquals(c.kind === "stream" && c.length, null);
    assertEquals(await bodyText(c), "c".repeat(300_000));
    // within the bound, a chunked body is buffered
    const whole = await client.request(call(`${up.url}/chunked`, { maxBuffer: 400_000 }));
    assertEquals(whole.kind, "buffered");
    assertEquals(up.connections, 1); // streams read to the end give their connection back
  });
});

Deno.test("http1: a cancelled stream closes its connection", async () => {
  await withUpstream(() => [
    "HTTP/1.1 200 OK\r\ncontent-length: 3000000\r\n\r\n",
    "x".repeat(100_000),
    "hang",
  ], async (up, client) => {
    const r = await client.request(call(`${up.url}/v`, { maxBuffer: 10 }));
    assert(r.kind === "stream" && r.body);
    const reader = r.body.getReader();
    await reader.read();
    await reader.cancel();
    const again = await client.request(call(`${up.url}/again`, { timeoutMs: 100 }));
    if (again.kind === "stream") await again.body?.cancel(); // its connection closes too
    assertEquals(up.connections, 2);
  });
});

Deno.test("http1: gzip, deflate and br bodies are decoded; a bomb over the bound streams", async () => {
  const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i })) });
  const enc = new TextEncoder();
  const encoded: Record<string, Uint8Array> = {
    "/gzip": zlib.gzipSync(enc.encode(json)),
    "/deflate": zlib.deflateSync(enc.encode(json)),
    "/br": zlib.brotliCompressSync(enc.encode(json)),
    "/bomb": zlib.gzipSync(new Uint8Array(2_000_000)),
  };
  await withUpstream((r) => {
    const body = encoded[r.target];
    const coding = r.target === "/bomb" ? "gzip" : r.target.slice(1);
    return [
      `HTTP/1.1 200 OK\r\ncontent-encoding: ${coding}\r\ncontent-length: ${body.length}\r\n\r\n`,
      body,
    ];
  }, async (up, client) => {
    for (const p of ["/gzip", "/deflate", "/br"]) {
      const r = await client.request(call(up.url + p));
      assert(r.kind === "buffered", p);
      assertEquals(await bodyText(r), json, p);
      assertEquals(r.headers.some((h) => h[0] === "content-encoding"), false);
    }
    const bomb = await client.request(call(`${up.url}/bomb`, { maxBuffer: 64 * 1024 }));
    assertEquals(bomb.kind === "stream" && bomb.length, null);
    assertEquals(
      (await new Response(bomb.kind === "stream" ? bomb.body : null).arrayBuffer()).byteLength,
      2_000_000,
    );
  });
});

Deno.test("http1: concurrent requests each get their own connection, then share the pool", async () => {
  await withUpstream((r) => [{ waitMs: 20 }, ok(r.target)], async (up, client) => {
    const paths = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const got = await Promise.all(
      paths.map(async (p) => await bodyText(await client.request(call(up.url + p)))),
    );
    assertEquals(got, paths);
    assertEquals(up.connections, 8);
    await Promise.all(paths.map((p) => client.request(call(up.url + p))));
    assertEquals(up.connections, 8);
  });
});

Deno.test("http1: an unreachable upstream is 502", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const client = createHttp1Client();
  try {
    const r = await client.request(call(`http://127.0.0.1:${port}/x`));
    assertEquals(r.kind === "error" && [r.status, r.message], [502, "Upstream unreachable"]);
  } finally {
    client.close();
  }
});

Deno.test("http1: an undecodable body is 502, and its intact connection stays usable", async () => {
  await withUpstream(
    (r) =>
      r.target === "/corrupt"
        ? ["HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: 4\r\n\r\nnope"]
        : [ok("fine")],
    async (up, client) => {
      const bad = await client.request(call(`${up.url}/corrupt`));
      assertEquals(bad.kind === "error" && [bad.status, bad.message], [
        502,
        "Upstream sent a malformed response",
      ]);
      assertEquals(await bodyText(await client.request(call(`${up.url}/next`))), "fine");
      assertEquals(up.connections, 1);
    },
  );
});
