import { assert, assertEquals, assertRejects, assertThrows } from "../tests/assert.ts";
import { createCachelyFetch } from "./fetch.ts";
import { createGenericProvider, providerRegistry, resolveProvider } from "./provider_registry.ts";
import { PROVIDER_KINDS } from "./providers.ts";
import { createCachelyExperimentTracker, createTracker } from "./tracker.ts";

/** A loopback server that records requests and answers with `answer`. */
function recorder(answer: (req: Request) => Response) {
  const seen: { url: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ url: req.url, headers: new Headers(req.headers) });
    return answer(req);
  });
  return {
    seen,
    origin: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

Deno.test("createCachelyFetch() names the bad option at creation time", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ provider: { cms: "generic" } }, "invalid option tenant: is required"],
    [{ tenant: "Acme Shop", provider: { cms: "generic" } }, "invalid option tenant"],
    [{ customDomain: "not a host", provider: { cms: "generic" } }, "invalid option customDomain"],
    [{ tenant: "acme" }, "invalid option provider: is required"],
    [{ tenant: "acme", provider: "wordpress" }, 'invalid option provider: "wordpress"'],
    // only contentful and prismic are ids here (the original's); the rest: createGenericProvider
    [
      { tenant: "acme", provider: "generic" },
      "createGenericProvider({ id, apiHosts, assetHosts })",
    ],
    [{ tenant: "acme", provider: "sanity" }, "createGenericProvider({ id, apiHosts, assetHosts })"],
    [{ tenant: "acme", provider: { cms: "ghost" } }, "invalid option provider.cms"],
    [{ tenant: "acme", provider: "contentful" }, "invalid option provider.spaceId: is required"],
    [{ tenant: "acme", provider: { cms: "contentful", spaceId: "NO!" } }, "provider.spaceId"],
    [{ tenant: "acme", provider: { cms: "cloudinary" } }, "provider.cloudName"],
    [
      { tenant: "acme", provider: { cms: "generic" }, transform: "a b" },
      "invalid option transform",
    ],
    [
      { tenant: "acme", provider: { cms: "generic" }, experiments: {} },
      "invalid option experiments",
    ],
    [
      { tenant: "acme", provider: { cms: "generic" }, apiOrigin: "ftp://x" },
      "invalid option apiOrigin",
    ],
  ];
  for (const [opts, message] of cases) {
    const err = assertThrows(() => createCachelyFetch(opts as never));
    assert(err instanceof Error && err.message.includes(message), `${message} ← ${err}`);
    assert((err as Error).message.startsWith("createCachelyFetch: "), String(err));
  }
});

Deno.test("createGenericProvider({ id, apiHosts, assetHosts }): clean URLs the tenant kind serves", () => {
  const t = "https://acme.cachely.app";
  const cases: [string, string, string, string][] = [
    [
      "sanity",
      "cdn.sanity.io",
      "https://cdn.sanity.io/images/p1x2/production/abc-800x600.jpg",
      `${t}/abc-800x600.jpg`,
    ],
    [
      "shopify",
      "cdn.shopify.com",
      "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1",
      `${t}/cdn/shop/files/tote.jpg?v=1`,
    ],
    [
      "imgix",
      "acme.imgix.net",
      "https://acme.imgix.net/photos/a.jpg?w=1200",
      `${t}/photos/a.jpg?w=1200`,
    ],
    ["storyblok", "a.storyblok.com", "https://a.storyblok.com/f/123/a.png", `${t}/f/123/a.png`],
    [
      "s3",
      "bucket.s3.amazonaws.com",
      "https://bucket.s3.amazonaws.com/img/a.webp",
      `${t}/img/a.webp`,
    ],
  ];
  for (const [id, host, source, clean] of cases) {
    const p = createGenericProvider({ id, apiHosts: ["api.example.com"], assetHosts: [host] });
    assertEquals(p.rewriter(t)(JSON.stringify({ u: source })), JSON.stringify({ u: clean }), id);
  }
  const f = createCachelyFetch({
    tenantOrigin: t,
    provider: createGenericProvider({
      id: "sanity",
      apiHosts: ["p1.apicdn.sanity.io", "p1.api.sanity.io"],
    }),
  });
  assertEquals(
    f.proxyUrl("https://p1.api.sanity.io/v1/data/query/production?q=1"),
    `${t}/~api/v1/data/query/production?q=1`,
  );
  assertEquals(f.proxyUrl("https://p1.apicdn.sanity.io/v1/x"), `${t}/~api/v1/x`);
  assertEquals(f.proxyUrl("https://other.example.com/v1/x"), "https://other.example.com/v1/x");
});

Deno.test("createGenericProvider() names the bad asset host or API host", () => {
  for (
    const [opts, option] of [
      [{ apiHosts: ["not a host/"] }, "apiHosts[0]"],
      [{ apiHosts: "api.example.com" }, "apiHosts"],
      [{ assetHosts: ["ftp://x.example"] }, "assetHosts[0]"],
      [{ id: "Bad Id" }, "id"],
    ] as const
  ) {
    const e = assertThrows(() => createGenericProvider(opts as never));
    assert(String(e).includes(`invalid option ${option}`), String(e));
  }
  const a = assertThrows(() => createGenericProvider({ assetHosts: ["ok.example.com", "?"] }));
  assert(String(a).includes("invalid option assetHosts[1]"), String(a));
  const b = assertThrows(() => createGenericProvider({ apiHost: "http://api.example.com" }));
  assert(String(b).includes("invalid option apiHost"), String(b));
});

Deno.test("the registry has every provider kind and each resolves", () => {
  assertEquals(Object.keys(providerRegistry).sort(), [...PROVIDER_KINDS].sort());
  const ids: Record<string, Record<string, string>> = {
    contentful: { spaceId: "abc123xyz" },
    prismic: { repository: "my-repo" },
    sanity: { projectId: "p1" },
    shopify: { storeDomain: "shop.myshopify.com" },
    cloudinary: { cloudName: "demo" },
    imgix: { imgixDomain: "acme.imgix.net" },
    storyblok: {},
    generic: {},
  };
  for (const kind of PROVIDER_KINDS) {
    const p = resolveProvider({ cms: kind, ...ids[kind] });
    assertEquals(p.kind, kind);
  }
});

Deno.test("createCachelyFetch() routes API calls through /~api/, strips credentials, adds preview and transform", async () => {
  const srv = recorder(() => Response.json({ ok: true }));
  try {
    const f = createCachelyFetch({
      tenantOrigin: srv.origin,
      provider: { cms: "contentful", spaceId: "abc123xyz" },
      preview: true,
      transform: "short",
    });
    assertEquals(
      f.proxyUrl(
        "https://cdn.contentful.com/spaces/abc123xyz/environments/master/entries?limit=1&access_token=x",
      ),
      `${srv.origin}/~api/environments/master/entries?limit=1&preview=1&transform=short`,
    );
    // Not the CMS API: left alone.
    assertEquals(f.proxyUrl("https://example.com/a"), "https://example.com/a");
    const res = await f("https://cdn.contentful.com/spaces/abc123xyz/entries", {
      headers: { authorization: "Bearer secret", "x-keep": "1" },
    });
    assertEquals(await res.json(), { ok: true });
    const req = srv.seen[0];
    assertEquals(new URL(req.url).pathname, "/~api/entries");
    assertEquals(req.headers.get("authorization"), null);
    assertEquals(req.headers.get("x-keep"), "1");
    // A relative path is an API path too; a Request object works like a URL.
    await (await f(new Request(`${srv.origin}/~api/posts`, { headers: { authorization: "x" } })))
      .body?.cancel();
    await (await f("/posts/2")).body?.cancel();
    assertEquals(srv.seen.map((r) => new URL(r.url).pathname), [
      "/~api/entries",
      "/~api/posts",
      "/~api/posts/2",
    ]);
    assertEquals(srv.seen[1].headers.get("authorization"), null);
  } finally {
    await srv.close();
  }
});

Deno.test("createCachelyFetch() rewrites provider asset URLs in JSON answers only", async () => {
  const asset = "https://images.ctfassets.net/abc123xyz/a1/tok/hero.jpg";
  const srv = recorder((req) =>
    new URL(req.url).pathname.endsWith(".txt")
      ? new Response(asset, { headers: { "content-type": "text/plain" } })
      // JSON serialisers may write "\/" for "/"
      : new Response(
        `{"url":"${asset}","escaped":"${asset.replaceAll("/", "\\/")}","proto":"${
          asset.slice(6)
        }"}`,
        { headers: { "content-type": "application/json; charset=utf-8" } },
      )
  );
  try {
    const f = createCachelyFetch({
      tenantOrigin: srv.origin,
      provider: { cms: "contentful", spaceId: "abc123xyz" },
    });
    const body = await (await f("/entries")).json();
    assertEquals(body.url, `${srv.origin}/a1/tok/hero.jpg`);
    assertEquals(body.escaped, `${srv.origin}/a1/tok/hero.jpg`);
    assertEquals(body.proto, `${srv.origin}/a1/tok/hero.jpg`);
    assertEquals(await (await f("/file.txt")).text(), asset);
    const raw = createCachelyFetch({
      tenantOrigin: srv.origin,
      provider: { cms: "contentful", spaceId: "abc123xyz" },
      rewriteAssets: false,
    });
    assertEquals((await (await raw("/entries")).json()).url, asset);
  } finally {
    await srv.close();
  }
});

Deno.test("createCachelyFetch() hands answers to the tracker; the tracker has both names", async () => {
  assertEquals(createCachelyExperimentTracker, createTracker);
  const srv = recorder(() =>
    Response.json({}, {
      headers: {
        "x-cachely-experiment-id": "7",
        "x-cachely-variant-id": "3",
        "x-cachely-variant-key": "casual",
        "x-cachely-experiment-profile": "casual",
      },
    })
  );
  try {
    const tracker = createCachelyExperimentTracker({
      tenantSlug: "acme",
      endpoint: `${srv.origin}/api/ai-experiments/events`,
      sessionStorage: null,
      localStorage: null,
    });
    const f = createCachelyFetch({
      tenantOrigin: srv.origin,
      provider: { cms: "storyblok" },
      experiments: tracker,
    });
    await (await f("/stories")).body?.cancel();
    assertEquals(tracker.getAssignment()?.variantKey, "casual");
  } finally {
    await srv.close();
  }
});

Deno.test("createCachelyFetch() network failures reject as fetch itself does", async () => {
  const srv = recorder(() => new Response("x"));
  const origin = srv.origin;
  await srv.close();
  const f = createCachelyFetch({ tenantOrigin: origin, provider: { cms: "generic" } });
  const direct = await fetch(`${origin}/~api/x`).then(() => null, (e) => e);
  const wrapped = await f("/x").then(() => null, (e) => e);
  assert(direct instanceof TypeError);
  assert(wrapped instanceof TypeError);
  assertEquals(wrapped.constructor, direct.constructor);
  assertEquals(wrapped.message, direct.message);
  assert((await assertRejects(() => f("/x"))) instanceof TypeError);
});

Deno.test("tenant and customDomain give the tenant origin", () => {
  assertEquals(
    createCachelyFetch({ tenant: "acme", provider: { cms: "generic" } }).tenantOrigin,
    "https://acme.cachely.app",
  );
  assertEquals(
    createCachelyFetch({
      tenant: "acme",
      proxyDomain: "localhost:8000",
      provider: { cms: "generic" },
    })
      .tenantOrigin,
    "http://acme.localhost:8000",
  );
  assertEquals(
    createCachelyFetch({
      tenant: "acme",
      customDomain: "cdn.acme.com",
      provider: { cms: "generic" },
    })
      .tenantOrigin,
    "https://cdn.acme.com",
  );
});
