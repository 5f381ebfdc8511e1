/**
 * Edge security and bad input: no request can leave the configured upstream
 * (WPT URL corpus through the joining code and the whole edge), hostile paths,
 * SSRF re-check at fetch time, credentials never leaking (canary token), size
 * limits, and the module-graph guard (edge/ never reaches the database layer).
 */
import { assert, assertEquals } from "./assert.ts";
import { CANARY, edgeFixture, startUpstream } from "./fakes/upstream.ts";
import { hostMappingClient, startAssetHost } from "./fakes/asset_host.ts";
import { BadPathError, joinUpstream } from "../lib/net/url_join.ts";
import { encryptSecret } from "../lib/crypto/mod.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

type WptCase = { input: string; base: string | null; failure?: boolean };
const wpt = (JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/corpora/wpt-urltestdata.json", import.meta.url)),
) as unknown[]).filter((x): x is WptCase => typeof x === "object" && x !== null);

const BASE = "https://api.example.com/v1_1/demo";

/** Every fetch the edge makes, observed on its way to the real fetch. */
function recordingFetch(urls: string[]): typeof fetch {
  return (input, init) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return fetch(input, init);
  };
}

// ---- security: the upstream origin never changes ----

Deno.test("joinUpstream() keeps every WPT urltestdata input inside the base or refuses it", () => {
  let refused = 0;
  for (const c of wpt) {
    for (const path of [c.input, `/${c.input}`, `/x/${c.input}`]) {
      try {
        const url = joinUpstream(BASE, path, "");
        assertEquals(url.origin, "https://api.example.com", JSON.stringify(path));
        assert(url.pathname.startsWith("/v1_1/demo/"), JSON.stringify(path));
      } catch (e) {
        if (!(e instanceof BadPathError)) throw e;
        refused++;
      }
    }
  }
  assert(refused > 0 && refused < wpt.length * 3, `refused ${refused}`);
});

Deno.test("the whole edge never fetches outside the API base for any WPT input", async () => {
  const up = startUpstream();
  const urls: string[] = [];
  const fx = await edgeFixture(`${up.url}/base/v1`, { fetch: recordingFetch(urls) });
  try {
    let sent = 0;
    for (const c of wpt) {
      let req: Request;
      try {
        req = new Request(`http://acme.localhost:8000/~api/${c.input}`);
      } catch {
        continue; // not a URL a server could receive
      }
      sent++;
      const res = await fx.edge.handle(req, { surface: "tenant", slug: "acme" }, {
        clientIp: "1.2.3.4",
      });
      assert([200, 400, 404, 405, 413].includes(res.status), `${res.status} for ${c.input}`);
      await res.body?.cancel();
    }
    assert(sent > 500, `sent ${sent}`);
    assert(urls.length > 100, `fetched ${urls.length}`);
    for (const u of urls) {
      const url = new URL(u);
      assertEquals(url.origin, up.url, u);
      assert(url.pathname.startsWith("/base/v1/"), u);
    }
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("hostile paths are 400 and never fetched", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(`${up.url}/base`);
  try {
    const hostile = [
      "/~api/a%2f..%2f..%2fadmin",
      "/~api/%2e%2e%2fadmin",
      "/~api/a%5c..%5cadmin",
      "/~api/x%0d%0aX-Injected:%201",
      "/~api/x%00y",
      "/~api//evil.example/x",
    ];
    for (const p of hostile) {
      const res = await fx.request(p);
      assertEquals(res.status, 400, p);
      assertEquals((await res.json()).error.code, "invalid_path", p);
    }
    assertEquals(up.seen.length, 0);
    // dot segments the URL parser resolves never climb above the base either
    for (const p of ["/~api/../../admin", "/~api/.%2e/admin", "/~api/%2e%2e/%2e%2e/admin"]) {
      const climbed = await fx.request(p);
      assertEquals(climbed.status, 404, p);
      await climbed.body?.cancel();
    }
    assertEquals(up.seen.length, 0);
  } finally {
    fx.close();
    await up.close();
  }
});

// ---- security: SSRF ----

Deno.test("with private upstreams refused, a loopback API origin gets 502 and no request", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url, { env: { ALLOW_PRIVATE_UPSTREAMS: "false" } });
  try {
    const res = await fx.request("/~api/x");
    assertEquals(res.status, 502);
    assertEquals((await res.json()).error.code, "upstream_refused");
    assertEquals(up.seen.length, 0);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("the resolved address is re-checked at fetch time (DNS changed since validation)", async () => {
  const host = startAssetHost();
  let answer = "93.184.216.34";
  const resolveDns =
    ((_h: string, type: string) =>
      Promise.resolve(type === "A" ? [answer] : [])) as typeof Deno.resolveDns;
  const fx = await edgeFixture("https://api.tenant.example", {
    env: { ALLOW_PRIVATE_UPSTREAMS: "false" },
    resolveDns,
    upstream: hostMappingClient(["api.tenant.example", "rebound.example"], host),
  });
  try {
    const ok = await fx.request("/~api/public");
    assertEquals(ok.status, 200);
    await ok.arrayBuffer();
    answer = "127.0.0.1";
    await fx.update({ api: { origin: "https://rebound.example" } });
    const bad = await fx.request("/~api/private");
    assertEquals(bad.status, 502);
    assertEquals((await bad.json()).error.code, "upstream_refused");
    assertEquals(host.seen.map((s) => s.path), ["/public"]);
  } finally {
    fx.close();
    await host.close();
  }
});

// ---- security: credentials ----

Deno.test("the canary token never appears in a response, log line, cache key or usage", async () => {
  const up = startUpstream();
  up.route(
    "/echo",
    (req) =>
      Response.json({ auth: req.headers.get("authorization"), url: req.url }, {
        headers: {
          "x-echo": req.headers.get("authorization") ?? "",
          "content-type": "application/json",
        },
      }),
  );
  const fx = await edgeFixture(up.url, { env: { UPSTREAM_TIMEOUT_MS: "200" } });
  try {
    const seen: string[] = [];
    const paths = ["/~api/echo", "/~api/echo?x=1", "/~api/fail", "/~api/hang", "/~api/%2e%2e"];
    for (const mode of ["bearer", "query", "header"] as const) {
      await fx.update({
        api: { authMode: mode, authParam: mode === "bearer" ? null : "token" },
        versions: { api: seen.length, assets: 1, html: 1 },
      });
      for (const p of paths) {
        const res = await fx.request(p, { headers: { authorization: "Bearer visitor" } });
        seen.push(`${res.status} ${[...res.headers].join(";")} ${await res.text()}`);
      }
    }
    const pre = await fx.request("/~api/echo", { method: "POST", body: "x" });
    seen.push(await pre.text());
    assert(up.seen.some((s) => s.headers.get("authorization") === `Bearer ${CANARY}`));
    assert(up.seen.some((s) => s.query.includes(CANARY)));
    for (const s of seen) assert(!s.includes(CANARY), `leaked in response: ${s}`);
    for (const l of fx.logs) assert(!l.includes(CANARY), `leaked in log: ${l}`);
    for (const k of fx.edge.cache.lru.keys()) assert(!k.includes(CANARY), `leaked in key: ${k}`);
    for (const u of fx.usage) assert(!JSON.stringify(u).includes(CANARY));
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("Basic mode: no form of the credential reaches a visitor or the cache", async () => {
  const user = "key-4711";
  const secret = "s3cr3t-Basic-canary";
  const plain = `${user}:${secret}`;
  const b64 = btoa(plain);
  const up = startUpstream();
  up.route("/echo", (req) => {
    const auth = req.headers.get("authorization") ?? "";
    const decoded = atob(auth.replace(/^Basic /, ""));
    return Response.json({ auth, decoded, b64: auth.slice(6), secret: decoded.split(":")[1] }, {
      headers: { "x-echo": auth, "x-echo-plain": decoded, "x-echo-b64": auth.slice(6) },
    });
  });
  const fx = await edgeFixture(up.url);
  try {
    let v = 0;
    // The token is stored either as base64 (SPEC, image host) or as plain `user:secret`.
    for (const stored of [b64, plain]) {
      await fx.update({
        api: { authMode: "basic", tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, stored) },
        versions: { api: ++v, assets: 1, html: 1 },
      });
      const res = await fx.request("/~api/echo");
      const seen = `${[...res.headers].join(";")} ${await res.text()}`;
      assertEquals(res.status, 200);
      assertEquals(up.seen.at(-1)?.headers.get("authorization"), `Basic ${b64}`);
      for (const form of [plain, b64, `Basic ${b64}`, secret, encodeURIComponent(plain)]) {
        assert(!seen.includes(form), `${stored === b64 ? "b64" : "plain"}: ${form} in ${seen}`);
      }
      for (const k of fx.edge.cache.lru.keys()) {
        const obj = fx.edge.cache.lru.peek(k)!;
        const text = new TextDecoder().decode(obj.body) + JSON.stringify(obj.headers);
        assert(!text.includes(secret) && !text.includes(b64), "cached copy is scrubbed");
      }
    }
  } finally {
    fx.close();
    await up.close();
  }
});

// ---- errors: sizes and garbage ----

Deno.test("huge headers and over-long URLs are 413 before any upstream work", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url);
  try {
    const big = await fx.request("/~api/x", { headers: { "x-big": "a".repeat(40_000) } });
    assertEquals(big.status, 413);
    await big.body?.cancel();
    const long = await fx.request(`/~api/${"a".repeat(9000)}`);
    assertEquals(long.status, 413);
    await long.body?.cancel();
    assertEquals(up.seen.length, 0);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("garbage bytes from the upstream are passed on as they are (never a crash)", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url);
  try {
    const res = await fx.request("/~api/garbage");
    assertEquals(res.status, 200);
    assertEquals((await res.arrayBuffer()).byteLength > 0, true);
  } finally {
    fx.close();
    await up.close();
  }
});

Deno.test("an unexpected failure is 500 internal, logged by name only, never a crash", async () => {
  const fx = await edgeFixture(null, {
    snapshot: { website: { origin: "not a url", siteProxy: true } },
  });
  try {
    const res = await fx.request("/page", {}, { surface: "preview", slug: "acme" });
    assertEquals(res.status, 500);
    assertEquals((await res.json()).error, { code: "internal", message: "Internal error" });
    const line = fx.logs.find((l) => l.includes("edge request failed"))!;
    assertEquals(JSON.parse(line).error, "TypeError");
    assertEquals(fx.usage.at(-1)!.status, 500);
  } finally {
    fx.close();
  }
});

// ---- structure ----

Deno.test("edge/ never imports lib/db, drizzle, postgres, pglite, preact or routes/", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../edge/mod.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  // `modules` is the graph itself (npm packages appear as `npm:/name@version`);
  // `npmPackages` lists the whole lockfile, so it is not used.
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: Array<{ specifier: string }>;
  };
  // Paths relative to the checkout, so one checked out under a directory named routes/ passes.
  const root = new URL("../", import.meta.url).href;
  const specs = info.modules.map((m) => m.specifier.replace(root, ""));
  assert(specs.includes("edge/api_proxy.ts"), "the graph was walked");
  const forbidden = [/^lib\/db\//, /drizzle/, /postgres/, /pglite/, /preact/, /^routes\//];
  for (const s of specs) {
    for (const f of forbidden) assert(!f.test(s), `edge graph reaches ${s}`);
  }
});
