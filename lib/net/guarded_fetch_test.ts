/**
 * The guarded fetch of user-supplied URLs over real loopback servers. A small "network"
 * maps the public addresses the fake resolvers answer to loopback servers, and loopback
 * (what a rebinding name answers second) to a canary; a connection given no address
 * resolves the name again, as the system would. The https case serves a certificate from a
 * CA made with openssl for this run and reads the SNI of the ClientHello.
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { serveOnLoopback } from "../../tests/harness.ts";
import { guardedFetch, type GuardedFetchDeps, type GuardedRequest } from "./guarded_fetch.ts";
import { connectTo, createHttp1Client, type Http1Options } from "../../edge/http1/client.ts";
import type { UpstreamClient } from "./upstream_types.ts";

const PUBLIC_A = "93.184.216.34";
const PUBLIC_B = "93.184.216.35";

type Server = { port: number; hits: string[]; close(): Promise<void> };

function server(handler: (req: Request, url: URL) => Response | Promise<Response>): Server {
  const hits: string[] = [];
  const s = serveOnLoopback((req) => {
    const url = new URL(req.url);
    hits.push(`${req.headers.get("host")}${url.pathname}`);
    return handler(req, url);
  });
  return { port: s.port, hits, close: s.close };
}

/** Public names → PUBLIC_A (www.*) or PUBLIC_B (other.*); *.internal.test → loopback. */
const dns = ((host: string, type: string) => {
  if (type !== "A") return Promise.resolve([]);
  if (host.endsWith(".internal.test")) return Promise.resolve(["127.0.0.1"]);
  return Promise.resolve([host.startsWith("other.") ? PUBLIC_B : PUBLIC_A]);
}) as typeof Deno.resolveDns;

/**
 * A client whose network sends PUBLIC_A to `a`, PUBLIC_B to `b` and anything else to the
 * canary; with no address the name is resolved again through `resolve`.
 */
function network(
  servers: { a: Server; b?: Server; canary: Server },
  resolve: typeof Deno.resolveDns = dns,
  opts: Http1Options = {},
) {
  const connected: string[] = [];
  const client = createHttp1Client({
    keepHeaders: true,
    ...opts,
    connect: async (url, address) => {
      const ip = address ?? (await resolve(url.hostname, "A"))[0];
      connected.push(ip);
      const to = ip === PUBLIC_A ? servers.a : ip === PUBLIC_B ? servers.b : servers.canary;
      return await Deno.connect({ hostname: "127.0.0.1", port: (to ?? servers.canary).port });
    },
  });
  return { client, connected };
}

const deps = (client: UpstreamClient, resolveDns = dns): GuardedFetchDeps => ({
  client,
  resolveDns,
  allowPrivate: false,
});

const get = (url: string, more: Partial<GuardedRequest> = {}): GuardedRequest => ({
  url,
  timeoutMs: 2_000,
  maxBytes: 64 * 1024,
  over: "truncate",
  ...more,
});

const canaryServer = () => server(() => new Response("internal secrets"));

Deno.test("guardedFetch(): a rebinding name reaches the checked address, never the second answer", async () => {
  const legit = server((req) => new Response(`public ${req.headers.get("host")}`));
  const canary = canaryServer();
  let lookups = 0;
  // First answer public (what the check sees), every later one loopback (the rebind).
  const rebinding = ((_h: string, type: string) =>
    Promise.resolve(
      type === "A" ? (lookups++ === 0 ? [PUBLIC_A] : ["127.0.0.1"]) : [],
    )) as typeof Deno.resolveDns;
  const { client, connected } = network({ a: legit, canary }, rebinding);
  try {
    const r = await guardedFetch(deps(client, rebinding), get("http://shop.example/post"));
    assert(r.ok, JSON.stringify(r));
    assertEquals(new TextDecoder().decode(r.body), "public shop.example");
    assertEquals(connected, [PUBLIC_A]);
    assertEquals(canary.hits, [], "no request reached the loopback canary");
    // The next call resolves again and gets loopback: refused before any connection.
    const again = await guardedFetch(deps(client, rebinding), get("http://shop.example/post"));
    assertEquals([again.ok, !again.ok && again.error], [false, "unsafe_url"]);
    assertEquals(canary.hits, []);
  } finally {
    client.close();
    await legit.close();
    await canary.close();
  }
});

Deno.test("guardedFetch(): redirects are followed hop by hop, each target checked and pinned", async () => {
  const a = server((_req, url) => {
    if (url.pathname === "/") return Response.redirect("http://www.site.test/home", 302);
    if (url.pathname === "/home") return Response.redirect("http://other.site.test/", 301);
    if (url.pathname === "/to-internal") {
      return Response.redirect("http://admin.internal.test/secret", 302);
    }
    if (url.pathname === "/to-literal") return Response.redirect("http://127.0.0.1:1/", 302);
    if (url.pathname === "/to-metadata") {
      return Response.redirect("http://169.254.169.254/latest/meta-data/", 307);
    }
    const n = Number(url.pathname.slice(1));
    return Response.redirect(`http://www.site.test/${n + 1}`, 302);
  });
  const b = server(() => new Response("<h1>ok</h1>", { headers: { "content-type": "text/html" } }));
  const canary = canaryServer();
  const { client, connected } = network({ a, b, canary });
  try {
    const r = await guardedFetch(deps(client), get("http://www.site.test/", { maxRedirects: 5 }));
    assert(r.ok, JSON.stringify(r));
    assertEquals([r.url, r.status, new TextDecoder().decode(r.body)], [
      "http://other.site.test/",
      200,
      "<h1>ok</h1>",
    ]);
    assertEquals([...new Set(connected)], [PUBLIC_A, PUBLIC_B]); // hop 2 reused hop 1's connection
    assertEquals([a.hits, b.hits], [["www.site.test/", "www.site.test/home"], [
      "other.site.test/",
    ]]);
    for (const path of ["/to-internal", "/to-literal", "/to-metadata"]) {
      const refused = await guardedFetch(
        deps(client),
        get(`http://www.site.test${path}`, { maxRedirects: 5 }),
      );
      assertEquals([refused.ok, !refused.ok && refused.error], [false, "unsafe_url"], path);
    }
    assertEquals(canary.hits, [], "no redirect reached a private address");
    const loop = await guardedFetch(
      deps(client),
      get("http://www.site.test/0", { maxRedirects: 5 }),
    );
    assertEquals(loop, {
      ok: false,
      url: "http://www.site.test/5",
      error: "too_many_redirects",
      message: "More than 5 redirects",
    });
    // Redirects not allowed: the 3xx is the answer, its target never fetched.
    const manual = await guardedFetch(deps(client), get("http://www.site.test/to-internal"));
    assert(manual.ok);
    assertEquals([manual.status, manual.headers.get("location")], [
      302,
      "http://admin.internal.test/secret",
    ]);
  } finally {
    client.close();
    await Promise.all([a.close(), b.close(), canary.close()]);
  }
});

/** An endless body of 16 KiB pieces, counting what was sent. */
function endlessServer() {
  const state = { sent: 0 };
  const s = server((_req, url) => {
    if (url.pathname === "/sized") {
      return new Response("x".repeat(5000), { headers: { "content-type": "text/html" } });
    }
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(ctrl) {
          state.sent += 16384;
          // random: Deno.serve may gzip a JSON body, which would then hardly grow
          ctrl.enqueue(crypto.getRandomValues(new Uint8Array(16384)));
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  });
  return { ...s, state };
}

Deno.test("guardedFetch(): a body over the cap is cut (truncate) or refused as too_large", async () => {
  const big = endlessServer();
  const canary = canaryServer();
  const { client } = network({ a: big, canary });
  try {
    const cut = await guardedFetch(
      deps(client),
      get("http://www.big.test/sized", { maxBytes: 1000 }),
    );
    assert(cut.ok);
    assertEquals([cut.body.byteLength, cut.truncated], [1000, true]);
    const whole = await guardedFetch(
      deps(client),
      get("http://www.big.test/sized", { maxBytes: 5000 }),
    );
    assert(whole.ok);
    assertEquals([whole.body.byteLength, whole.truncated], [5000, false]);
    const t0 = performance.now();
    const endless = await guardedFetch(
      deps(client),
      get("http://www.big.test/endless", { maxBytes: 100_000 }),
    );
    assert(endless.ok);
    assertEquals([endless.body.byteLength, endless.truncated], [100_000, true]);
    const refused = await guardedFetch(
      deps(client),
      get("http://www.big.test/endless", { maxBytes: 100_000, over: "refuse" }),
    );
    assertEquals(refused, {
      ok: false,
      url: "http://www.big.test/endless",
      error: "too_large",
      message: "Body over the 100000-byte limit",
    });
    assert(performance.now() - t0 < 1_500, "stopped at the bound, not at the time limit");
  } finally {
    client.close();
    await big.close();
    await canary.close();
  }
});

Deno.test("guardedFetch(): a silent or trickling server hits the time bound, a hung connect the connect bound", async () => {
  const release = Promise.withResolvers<void>();
  const slow = server(async (_req, url) => {
    if (url.pathname === "/silent") {
      await release.promise;
      return new Response("late");
    }
    // a head at once, then one byte every 50 ms
    let timer: ReturnType<typeof setInterval> | undefined;
    return new Response(
      new ReadableStream<Uint8Array>({
        start(ctrl) {
          timer = setInterval(() => ctrl.enqueue(new Uint8Array([120])), 50);
        },
        cancel() {
          clearInterval(timer);
        },
      }),
    );
  });
  const canary = canaryServer();
  const { client } = network({ a: slow, canary });
  const hung = createHttp1Client({
    keepHeaders: true,
    connectTimeoutMs: 150,
    connect: () => new Promise<Deno.Conn>(() => {}),
  });
  try {
    for (const path of ["/silent", "/trickle"]) {
      const t0 = performance.now();
      const r = await guardedFetch(
        deps(client),
        get(`http://www.slow.test${path}`, { timeoutMs: 300 }),
      );
      const ms = performance.now() - t0;
      assertEquals(r, {
        ok: false,
        url: `http://www.slow.test${path}`,
        error: "timeout",
        message: "Timed out after 300 ms",
      });
      assert(ms >= 250 && ms < 1_500, `${path}: ${ms} ms`);
    }
    const t0 = performance.now();
    const r = await guardedFetch(deps(hung), get("http://www.slow.test/", { timeoutMs: 5_000 }));
    const ms = performance.now() - t0;
    assertEquals([r.ok, !r.ok && r.error], [false, "timeout"]);
    assert(ms >= 120 && ms < 1_500, `connect bound: ${ms} ms`);
  } finally {
    release.resolve();
    client.close();
    hung.close();
    await slow.close();
    await canary.close();
  }
});

Deno.test("guardedFetch(): every must-block corpus URL is refused without a connection", async () => {
  const corpus = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../tests/fixtures/corpora/ssrf-must-block-urls.json", import.meta.url),
    ),
  ) as { must_block: Record<string, string[]> };
  // Named entries are built to resolve to private addresses (nip.io, rebinding services…).
  const privateDns =
    ((_h: string, t: string) =>
      Promise.resolve(t === "A" ? ["127.0.0.1"] : ["::1"])) as typeof Deno.resolveDns;
  let connects = 0;
  const client = createHttp1Client({
    connect: () => {
      connects++;
      return Promise.reject(new Error("no network here"));
    },
  });
  const all = Object.values(corpus.must_block).flat();
  assert(all.length > 100, `corpus has ${all.length} entries`);
  try {
    for (const raw of all) {
      const r = await guardedFetch(deps(client, privateDns), get(raw, { maxRedirects: 5 }));
      assert(!r.ok && r.error === "unsafe_url", raw);
    }
  } finally {
    client.close();
  }
  assertEquals(connects, 0);
});

// ---- https: pinned address, the name kept for SNI, Host and the certificate ----

async function openssl(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A CA and a leaf certificate for `name`, made for this run. */
async function makeCerts(name: string): Promise<{ ca: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    await openssl(
      dir,
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=Cachely test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    );
    await openssl(
      dir,
      "req",
      ...ec,
      "-keyout",
      "leaf.key",
      "-out",
      "leaf.csr",
      "-subj",
      `/CN=${name}`,
    );
    await Deno.writeTextFile(
      `${dir}/leaf.ext`,
      `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
    );
    await openssl(
      dir,
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "leaf.pem",
      "-days",
      "2",
      "-extfile",
      "leaf.ext",
    );
    const read = (f: string) => Deno.readTextFile(`${dir}/${f}`);
    return { ca: await read("ca.pem"), cert: await read("leaf.pem"), key: await read("leaf.key") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The server name (SNI) of a TLS ClientHello, or null. */
function sniOf(b: Uint8Array): string | null {
  // record header 5, handshake header 4, version 2, random 32
  let p = 5 + 4 + 2 + 32;
  p += 1 + b[p]; // session id
  p += 2 + ((b[p] << 8) | b[p + 1]); // cipher suites
  p += 1 + b[p]; // compression methods
  const end = p + 2 + ((b[p] << 8) | b[p + 1]);
  p += 2;
  while (p + 4 <= end && p + 4 <= b.length) {
    const type = (b[p] << 8) | b[p + 1];
    const len = (b[p + 2] << 8) | b[p + 3];
    if (type === 0) {
      const nameLen = (b[p + 7] << 8) | b[p + 8];
      return new TextDecoder().decode(b.subarray(p + 9, p + 9 + nameLen));
    }
    p += 4 + len;
  }
  return null;
}

/** A TCP relay to `port` that records the SNI of each connection's ClientHello. */
function sniRecorder(port: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const names: (string | null)[] = [];
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      (async () => {
        const upstream = await Deno.connect({ hostname: "127.0.0.1", port });
        conns.add(upstream);
        const first = new Uint8Array(16384);
        const n = await conn.read(first);
        if (n === null) return;
        names.push(sniOf(first.subarray(0, n)));
        await upstream.write(first.subarray(0, n));
        await Promise.all([
          conn.readable.pipeTo(upstream.writable).catch(() => {}),
          upstream.readable.pipeTo(conn.writable).catch(() => {}),
        ]);
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    names,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}

Deno.test({
  name:
    "guardedFetch(): https to the pinned address, SNI and Host name the host, the certificate verified",
  // the relay's piped connections end after the test's own closes
  sanitizeResources: false,
  sanitizeOps: false, // openssl runs as a child process; the TLS relay's sockets settle after the test
  async fn() {
    const NAME = "shop.pinned.test";
    const { ca, cert, key } = await makeCerts(NAME);
    const tls = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      (req) => new Response(`host=${req.headers.get("host")}`),
    );
    const relay = sniRecorder(tls.addr.port);
    const connected: string[] = [];
    // The production connect (TCP to the address, then TLS for the URL's host), with the
    // public address standing for the relay on loopback.
    const client = (caCerts?: string[]) =>
      createHttp1Client({
        keepHeaders: true,
        connect: (url, address) => {
          connected.push(address ?? "(resolved again)");
          return connectTo(url, address === PUBLIC_A ? "127.0.0.1" : "192.0.2.1", caCerts);
        },
      });
    const trusting = client([ca]);
    const untrusting = client();
    const url = `https://${NAME}:${relay.port}/x`;
    try {
      const r = await guardedFetch(deps(trusting), get(url));
      assert(r.ok, JSON.stringify(r));
      assertEquals(new TextDecoder().decode(r.body), `host=${NAME}:${relay.port}`);
      assertEquals(connected, [PUBLIC_A]);
      assertEquals(relay.names, [NAME], "SNI names the host, not the address");
      // Not trusting the CA: refused, never a plain-text fallback.
      const refused = await guardedFetch(deps(untrusting), get(url));
      assertEquals([refused.ok, !refused.ok && refused.error], [false, "fetch_failed"]);
      // Another name pinned to the same server: the certificate does not match it.
      const wrong = await guardedFetch(
        deps(trusting),
        get(`https://www.other-name.test:${relay.port}/`),
      );
      assertEquals([wrong.ok, !wrong.ok && wrong.error], [false, "fetch_failed"]);
    } finally {
      trusting.close();
      untrusting.close();
      relay.close();
      await tls.shutdown();
    }
  },
});
