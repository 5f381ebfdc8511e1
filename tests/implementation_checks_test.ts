// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Implementation checks through the real program: website-implementation-check against
 * a loopback fake website, cachely-check probing the preview host and custom domains
 * (served by the app itself through a routing fetch), roles and input errors.
 */
import { eq } from "drizzle-orm";
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, serveOnLoopback, signUp, type TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { domains, tenants } from "../lib/db/schema/mod.ts";
import { syncTenantSnapshot } from "../lib/edge_config/sync.ts";
import { CHECKS_PER_MINUTE } from "../routes/api/implementation_checks.ts";

/**
 * Server-side fetch of the app under test: tenant, preview and custom-domain hosts in
 * `appHosts` go to the app's own handler (as DNS would send them to us), hosts in
 * `mapped` to a loopback server, everything else to the network stack as usual.
 */
const route = {
  app: undefined as TestApp | undefined,
  appHosts: new Set<string>(),
  mapped: new Map<string, string>(),
  calls: [] as string[],
};
const routedFetch = ((input: URL | string | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  route.calls.push(url.href);
  if (url.hostname.endsWith(".localhost") || route.appHosts.has(url.hostname)) {
    return route.app!.handler(new Request(url, init));
  }
  const to = route.mapped.get(url.hostname);
  if (to) return fetch(new URL(`${url.pathname}${url.search}`, to), init);
  return fetch(input, init);
}) as typeof fetch;

/** Public addresses for every name, private for *.internal.test. */
const fakeDns = ((host: string, type: string) => {
  if (type !== "A") return Promise.resolve([]);
  return Promise.resolve(host.endsWith(".internal.test") ? ["10.1.2.3"] : ["93.184.215.14"]);
}) as unknown as typeof Deno.resolveDns;

function use(app: TestApp): void {
  route.app = app;
  route.appHosts.clear();
  route.mapped.clear();
  route.calls.length = 0;
}

const opts = { fetch: routedFetch, resolveDns: fakeDns, env: { UPSTREAM_TIMEOUT_MS: "400" } };
const strictOpts = { ...opts, env: { ...opts.env, ALLOW_PRIVATE_UPSTREAMS: "false" } };

const htmlRes = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });

/** The fake site under a public name (the check never fetches a private address). */
function startSite(slug: string) {
  const site = startUpstream();
  const name = `site-${slug}.example.test`;
  route.mapped.set(name, site.url);
  site.url = `http://${name}`;
  const tenantHost = `http://${slug}.localhost:8000`;
  site.route("/next", () =>
    htmlRes(`<!doctype html><html><head>
      <script src="/_next/static/chunks/main.js"></script>
      <script src="${tenantHost}/sdk/cachely-tracker.js" data-cachely-tenant="${slug}"></script>
      </head><body><img src="${tenantHost}/~assets/images.ctfassets.net/sp/a/hero.jpg">
      <script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>`));
  site.route(
    "/direct",
    () =>
      htmlRes(`<html><body><img src="https://images.ctfassets.net/sp/a/hero.jpg"></body></html>`),
  );
  site.route(
    "/mixed",
    () =>
      htmlRes(`<html><body><script>fetch("${tenantHost}/~api/entries")</script>
      <img src="https://images.ctfassets.net/sp/a/hero.jpg"></body></html>`),
  );
  site.route(
    "/data",
    () =>
      htmlRes(`<html><body><div id="app"></div><script type="application/json" id="state">
      {"hero":"https://images.ctfassets.net/sp/a/hero.jpg"}</script></body></html>`),
  );
  site.route("/server", () => htmlRes(`<html><body><h1>Rendered on the server</h1></body></html>`));
  site.route(
    "/moved",
    () => new Response(null, { status: 301, headers: { location: "/next" } }),
  );
  site.route(
    "/missing",
    () => new Response("<p>nope</p>", { status: 404, headers: { "content-type": "text/html" } }),
  );
  site.route("/json", () => Response.json({ html: false }));
  return site;
}

async function siteCheck(c: Client, slug: string, url: unknown) {
  return await c.post(`/api/tenants/${slug}/website-implementation-check`, { url });
}

// ---- website-implementation-check: happy ----

dbTest(
  "website check: a Next.js page using the tenant host and tracker is implemented",
  async (app) => {
    use(app);
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cms: "contentful" });
    const site = startSite(slug);
    try {
      const viewer = await memberWithRole(app, owner, slug, "viewer");
      const r = await siteCheck(viewer, slug, `${site.url}/next`);
      assertEquals(r.status, 200, r.text);
      assertEquals(r.body.ok, true);
      assertEquals(r.body.finalUrl, `${site.url}/next`);
      assertEquals(r.body.platform, "nextjs");
      const a = r.body.analysis;
      assertEquals(a.cachelyUsage, "detected");
      assertEquals(a.cachelySignals.map((s: any) => [s.type, s.where]), [
        ["tenant_host", "<script src>"],
        ["tenant_host", "<img src>"],
        ["asset_path", "<img src>"],
        ["client_library", "page source"],
      ]);
      assertEquals(a.directCmsUsage, "not_detected");
      assertEquals(a.directCmsSignals, []);
      assertEquals(a.cmsLabel, "Contentful");
      assertEquals(a.verdictState, "implemented");
      assertEquals(a.verdict, "The site uses Cachely and loads no CMS resources directly.");
    } finally {
      await site.close();
    }
  },
  opts,
);

dbTest(
  "website check: direct CMS images are not_using or mixed, data-only hosts potential, none inconclusive",
  async (app) => {
    use(app);
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cms: "contentful" });
    const site = startSite(slug);
    try {
      const direct = (await siteCheck(owner, slug, `${site.url}/direct`)).body;
      assertEquals(direct.platform, "generic");
      assertEquals(
        [
          direct.analysis.cachelyUsage,
          direct.analysis.directCmsUsage,
          direct.analysis.verdictState,
        ],
        ["not_detected", "detected", "not_using"],
      );
      assertEquals(direct.analysis.directCmsSignals, [{
        host: "images.ctfassets.net",
        context: "img",
        where: "<img src>",
        resource: true,
        evidence: "https://images.ctfassets.net/sp/a/hero.jpg",
      }]);
      const mixed = (await siteCheck(owner, slug, `${site.url}/mixed`)).body.analysis;
      assertEquals(
        [mixed.cachelyUsage, mixed.directCmsUsage, mixed.verdictState],
        ["detected", "detected", "mixed"],
      );
      assertEquals(mixed.cachelySignals.map((s: any) => [s.type, s.context]), [
        ["tenant_host", "inline_script"],
        ["api_path", "inline_script"],
      ]);
      const data = (await siteCheck(owner, slug, `${site.url}/data`)).body.analysis;
      assertEquals(
        [data.cachelyUsage, data.directCmsUsage, data.verdictState],
        ["not_detected", "potential", "inconclusive"],
      );
      assertEquals(data.directCmsSignals.map((s: any) => [s.context, s.resource]), [
        ["serialized_data", false],
      ]);
      const server = (await siteCheck(owner, slug, `${site.url}/server`)).body.analysis;
      assertEquals(
        [server.cachelyUsage, server.directCmsUsage, server.verdictState],
        ["inconclusive", "not_detected", "inconclusive"],
      );
    } finally {
      await site.close();
    }
  },
  opts,
);

dbTest("website check: redirects are followed and the final URL reported", async (app) => {
  use(app);
  const owner = await signUp(app);
  const slug = await createTenant(owner, { cms: "contentful" });
  const site = startSite(slug);
  try {
    const r = await siteCheck(owner, slug, `${site.url}/moved`);
    assertEquals(r.status, 200);
    assertEquals([r.body.ok, r.body.finalUrl], [true, `${site.url}/next`]);
    assertEquals(r.body.analysis.verdictState, "implemented");
    assertEquals(site.count("/moved"), 1);
    assertEquals(site.count("/next"), 1);
  } finally {
    await site.close();
  }
}, opts);

// ---- website-implementation-check: failures in the body ----

dbTest(
  "website check: 404, non-HTML, timeout and unreachable sites answer ok:false",
  async (app) => {
    use(app);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const site = startSite(slug);
    try {
      const missing = await siteCheck(owner, slug, `${site.url}/missing`);
      assertEquals(missing.status, 200);
      assertEquals(missing.body, {
        ok: false,
        finalUrl: `${site.url}/missing`,
        error: "http_error",
        message: "The site answered 404",
      });
      assertEquals((await siteCheck(owner, slug, `${site.url}/json`)).body, {
        ok: false,
        finalUrl: `${site.url}/json`,
        error: "not_html",
        message: "Expected an HTML page, got application/json",
      });
      const t0 = Date.now();
      const slow = await siteCheck(owner, slug, `${site.url}/hang`);
      assertEquals(slow.body, {
        ok: false,
        finalUrl: `${site.url}/hang`,
        error: "timeout",
        message: "Timed out after 400 ms",
      });
      assert(Date.now() - t0 < 5000);
      const closed = serveOnLoopback(() => new Response("x"));
      await closed.close();
      route.mapped.set("down.example.test", closed.url);
      const down = await siteCheck(owner, slug, "http://down.example.test/");
      assertEquals(down.body, {
        ok: false,
        finalUrl: "http://down.example.test/",
        error: "fetch_failed",
        message: "Could not connect to the site",
      });
    } finally {
      site.open();
      await site.close();
    }
  },
  opts,
);

dbTest(
  "website check: with private upstreams off a redirect to a private address is refused",
  async (app) => {
    use(app);
    const site = startUpstream();
    site.route(
      "/",
      () =>
        new Response(null, { status: 302, headers: { location: "http://db.internal.test/admin" } }),
    );
    site.route(
      "/loop",
      () => new Response(null, { status: 302, headers: { location: `${site.url}/` } }),
    );
    route.mapped.set("www.site.test", site.url);
    try {
      const owner = await signUp(app);
      const slug = await createTenant(owner);
      const r = await siteCheck(owner, slug, "https://www.site.test/");
      assertEquals(r.status, 200);
      assertEquals(r.body, {
        ok: false,
        finalUrl: "http://db.internal.test/admin",
        error: "unsafe_url",
        message: "Refused: host resolves to a non-public address",
      });
      assertEquals(route.calls, ["https://www.site.test/"], "never connected to the private host");
      // a redirect straight to the loopback address is refused by shape
      route.calls.length = 0;
      const loop = await siteCheck(owner, slug, "https://www.site.test/loop");
      assertEquals([loop.body.error, loop.body.finalUrl], ["unsafe_url", `${site.url}/`]);
      assertEquals(route.calls, ["https://www.site.test/loop"]);
    } finally {
      await site.close();
    }
  },
  strictOpts,
);

async function corpusRefused(app: TestApp) {
  use(app);
  const corpus = JSON.parse(
    await Deno.readTextFile(
      new URL("./fixtures/corpora/ssrf-must-block-urls.json", import.meta.url),
    ),
  ) as { must_block: Record<string, string[]> };
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  // The named entries are built to resolve privately; answer for them like their DNS does.
  app.services.resolveDns =
    ((_h: string, t: string) =>
      Promise.resolve(t === "A" ? ["127.0.0.1"] : ["::1"])) as unknown as typeof Deno.resolveDns;
  const outcomes = new Map<string, number>();
  for (const raw of Object.values(corpus.must_block).flat()) {
    app.clock.advance(60_000); // each check in a rate-limit window of its own
    const r = await siteCheck(owner, slug, raw);
    const outcome = r.status === 400 ? `400 ${r.body.error.code}` : `${r.status} ${r.body.error}`;
    assert(
      outcome === "400 bad_request" || outcome === "400 product_domain" ||
        outcome === "200 unsafe_url",
      `${raw}: ${outcome}`,
    );
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  assertEquals(route.calls, [], "no URL of the corpus was fetched");
  assert((outcomes.get("200 unsafe_url") ?? 0) > 50, JSON.stringify([...outcomes]));
}

dbTest(
  "website check: every must-block corpus URL is refused without a connection",
  corpusRefused,
  strictOpts,
);

// ALLOW_PRIVATE_UPSTREAMS concerns tenants' upstreams; the website check never reaches a
// private address in any mode (the harness turns private upstreams on).
dbTest(
  "website check: the corpus is refused too when private upstreams are allowed",
  corpusRefused,
  opts,
);

// ---- website-implementation-check: 400, 401, 404 ----

dbTest("website check: bad bodies and product domains are 400 naming url", async (app) => {
  use(app);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const bad: Array<[unknown, string, string]> = [
    [{}, "bad_request", "Invalid url: Invalid input: expected string, received undefined"],
    [{ url: 42 }, "bad_request", "Invalid url: Invalid input: expected string, received number"],
    [{ url: "" }, "bad_request", "Invalid url: Too small: expected string to have >=1 characters"],
    [{ url: "not a url" }, "bad_request", "Invalid url: not a valid URL"],
    [{ url: "ftp://example.com/" }, "bad_request", "Invalid url: must use http or https"],
    [{ url: "javascript:alert(1)" }, "bad_request", "Invalid url: must use http or https"],
    [
      { url: "http://localhost:8000/" },
      "product_domain",
      "Invalid url: must be your website, not a Cachely host",
    ],
    [
      { url: `http://${slug}.localhost:8000/` },
      "product_domain",
      "Invalid url: must be your website, not a Cachely host",
    ],
    [
      { url: `https://${slug}.preview.localhost/x` },
      "product_domain",
      "Invalid url: must be your website, not a Cachely host",
    ],
  ];
  for (const [body, code, message] of bad) {
    const r = await owner.post(`/api/tenants/${slug}/website-implementation-check`, body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assertEquals([r.body.error.code, r.body.error.message], [code, message], JSON.stringify(body));
    assertEquals(r.body.error.details.fields[0].path, "url");
  }
  const extra = await owner.post(`/api/tenants/${slug}/website-implementation-check`, {
    url: "https://example.com/",
    deep: true,
  });
  assertEquals(extra.status, 400);
  const malformed = await owner.post(`/api/tenants/${slug}/website-implementation-check`, "{");
  assertEquals([malformed.status, malformed.body.error.message], [
    400,
    "Invalid body: malformed JSON",
  ]);
  assertEquals(route.calls, [], "nothing was fetched");
}, opts);

dbTest("both checks: 401 anonymous, 404 for non-members and unknown tenants", async (app) => {
  use(app);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const outsider = await signUp(app);
  await createTenant(outsider);
  const anon = new Client(app);
  for (const path of ["cachely-check", "website-implementation-check"]) {
    const body = { url: "https://example.com/" };
    assertEquals((await anon.post(`/api/tenants/${slug}/${path}`, body)).status, 401, path);
    const hidden = await outsider.post(`/api/tenants/${slug}/${path}`, body);
    assertEquals([hidden.status, hidden.body.error.code], [404, "not_found"], path);
    assertEquals((await owner.post(`/api/tenants/nope-nope/${path}`, body)).status, 404, path);
  }
  assertEquals(route.calls, []);
}, opts);

// ---- cachely-check ----

async function addActiveDomain(app: TestApp, slug: string, hostname: string) {
  const [t] = await app.services.db.select().from(tenants).where(eq(tenants.slug, slug));
  await app.services.db.insert(domains).values({
    tenantId: t.id,
    hostname,
    status: "active",
    verificationToken: "tok",
  });
  await syncTenantSnapshot(app.services, t.id);
}

dbTest("both checks share a per-tenant limit of 20 a minute: 429 with Retry-After", async (app) => {
  use(app);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const other = await createTenant(owner);
  const check = (s: string) => owner.post(`/api/tenants/${s}/cachely-check`);
  for (let i = 0; i < CHECKS_PER_MINUTE - 1; i++) assertEquals((await check(slug)).status, 200);
  // A website check with a bad body is refused before it counts.
  assertEquals((await siteCheck(owner, slug, "not a url")).status, 400);
  assertEquals((await siteCheck(owner, slug, "https://www.site.test/x")).status, 200);
  const over = await check(slug);
  assertEquals(over.status, 429);
  assertEquals(over.body.error.code, "rate_limited");
  assert(Number(over.headers.get("retry-after")) >= 1);
  assertEquals((await check(other)).status, 200, "another tenant has its own allowance");
  app.clock.advance(60_000);
  assertEquals((await check(slug)).status, 200, "the next minute starts afresh");
});

dbTest("cachely-check: an API-only tenant is not_enabled and probes nothing", async (app) => {
  use(app);
  const owner = await signUp(app);
  const up = startUpstream();
  try {
    const slug = await createTenant(owner, { apiOrigin: up.url, apiAuthMode: "none" });
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const r = await viewer.post(`/api/tenants/${slug}/cachely-check`);
    assertEquals(r.status, 200, r.text);
    assertEquals(r.body, {
      state: "not_enabled",
      headline: "No website is served through Cachely: the site proxy is off (API or asset use)",
      probeUrl: null,
      surfaceLabel: null,
      items: [
        {
          id: "website_surface",
          label: "Website surface",
          state: "skipped",
          detail: "No website origin is configured",
        },
        {
          id: "api_proxy",
          label: "API proxy (configuration)",
          state: "pass",
          detail: `Origin ${new URL(up.url).host}, auth none`,
        },
        {
          id: "custom_domain",
          label: "Custom domain (configuration)",
          state: "info",
          detail: "No custom domain",
        },
      ],
      probes: [],
    });
    assertEquals(route.calls, []);
    // a website origin with the site proxy turned off is still not enabled
    const off = await createTenant(owner, { websiteOrigin: up.url, siteProxy: false });
    const o = await owner.post(`/api/tenants/${off}/cachely-check`);
    assertEquals([o.body.state, o.body.items[0].detail], [
      "not_enabled",
      "The site proxy is turned off",
    ]);
    assertEquals(o.body.items[1], {
      id: "api_proxy",
      label: "API proxy (configuration)",
      state: "info",
      detail: "No API origin configured",
    });
  } finally {
    await up.close();
  }
}, opts);

dbTest(
  "cachely-check: the preview host served by the edge is implemented (MISS then HIT)",
  async (app) => {
    use(app);
    const site = startUpstream();
    site.route("/", () => htmlRes("<h1>home</h1>"));
    try {
      const owner = await signUp(app);
      const slug = await createTenant(owner, {
        cms: "contentful",
        websiteOrigin: site.url,
        siteProxy: true,
      });
      const r = await owner.post(`/api/tenants/${slug}/cachely-check`);
      assertEquals(r.status, 200, r.text);
      const url = `http://${slug}.preview.localhost:8000/`;
      assertEquals(
        [r.body.state, r.body.headline, r.body.probeUrl, r.body.surfaceLabel],
        ["implemented", "The preview host is served through Cachely", url, "preview"],
      );
      assertEquals(r.body.probes, [
        {
          url,
          status: 200,
          ok: true,
          headers: { "x-cachely-cache": "MISS", "x-cachely-edge": "1" },
        },
        {
          url,
          status: 200,
          ok: true,
          headers: { "x-cachely-cache": "HIT", "x-cachely-edge": "1" },
        },
      ]);
      assertEquals(r.body.items.map((i: any) => [i.id, i.state]), [
        ["website_surface", "pass"],
        ["edge_headers", "pass"],
        ["page_status", "pass"],
        ["edge_cache", "pass"],
        ["api_proxy", "warn"], // contentful's default origin, no token
        ["custom_domain", "info"],
      ]);
      assertEquals(r.body.items[1].detail, "Cachely edge headers on 2 of 2 probes");
      assertEquals(site.count("/"), 1, "two probes, one origin fetch");
    } finally {
      await site.close();
    }
  },
  opts,
);

dbTest("cachely-check: an origin failing behind the edge needs attention", async (app) => {
  use(app);
  const site = startUpstream();
  site.route("/", () => new Response("down", { status: 503 }));
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { websiteOrigin: site.url });
    const r = await owner.post(`/api/tenants/${slug}/cachely-check`);
    assertEquals(
      [r.body.state, r.body.headline],
      ["active_needs_attention", "The preview host reaches Cachely but needs attention"],
    );
    assertEquals(r.body.probes.map((p: any) => [p.status, p.ok, p.headers["x-cachely-edge"]]), [
      [502, false, "1"],
      [502, false, "1"],
    ]);
    const page = r.body.items.find((i: any) => i.id === "page_status");
    assertEquals([page.state, page.detail], ["fail", "Answered 502, 502"]);
  } finally {
    await site.close();
  }
}, opts);

dbTest("cachely-check: an active custom domain is probed as production", async (app) => {
  use(app);
  const site = startUpstream();
  site.route("/", () => htmlRes("<h1>home</h1>"));
  // generic cache headers only: they never prove the page came through Cachely
  const elsewhere = serveOnLoopback(() =>
    htmlRes("<h1>other host</h1>", {
      age: "30",
      "x-cache": "HIT",
      "cf-cache-status": "HIT",
      via: "1.1 varnish",
    })
  );
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { websiteOrigin: site.url });
    await addActiveDomain(app, slug, "www.shop.test");
    route.appHosts.add("www.shop.test"); // DNS points at us
    const ok = await owner.post(`/api/tenants/${slug}/cachely-check`);
    assertEquals(
      [ok.body.state, ok.body.headline, ok.body.probeUrl, ok.body.surfaceLabel],
      [
        "implemented",
        "www.shop.test is served through Cachely",
        "http://www.shop.test/",
        "production",
      ],
    );
    assertEquals(ok.body.items[0].detail, "Custom domain www.shop.test is active");
    assertEquals(ok.body.items.at(-1), {
      id: "custom_domain",
      label: "Custom domain (configuration)",
      state: "pass",
      detail: "Active: www.shop.test",
    });

    route.appHosts.delete("www.shop.test");
    route.mapped.set("www.shop.test", elsewhere.url); // DNS moved elsewhere
    const gone = await owner.post(`/api/tenants/${slug}/cachely-check`);
    assertEquals(
      [gone.body.state, gone.body.headline],
      ["not_detected", "www.shop.test is not served through Cachely"],
    );
    assertEquals(gone.body.probes, [
      { url: "http://www.shop.test/", status: 200, ok: true, headers: {} },
      { url: "http://www.shop.test/", status: 200, ok: true, headers: {} },
    ]);
    assertEquals(gone.body.items[1], {
      id: "edge_headers",
      label: "Served through Cachely",
      state: "fail",
      detail: "No Cachely edge headers: the address does not reach Cachely (check DNS)",
    });
  } finally {
    await elsewhere.close();
    await site.close();
  }
}, opts);

dbTest(
  "cachely-check: with private upstreams off a custom domain resolving privately is not probed",
  async (app) => {
    use(app);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    // the stored origin would be refused on input with private upstreams off; set it directly
    await app.services.db.update(tenants).set({ websiteOrigin: "https://origin.example.com" })
      .where(eq(tenants.slug, slug));
    await addActiveDomain(app, slug, "www.shop.internal.test");
    const r = await owner.post(`/api/tenants/${slug}/cachely-check`);
    assertEquals([r.body.state, r.body.surfaceLabel], ["not_detected", "production"]);
    assertEquals(r.body.probes.map((p: any) => [p.status, p.ok, p.error]), [
      [null, false, "refused"],
      [null, false, "refused"],
    ]);
    assertEquals(route.calls, [], "nothing was fetched");
  },
  strictOpts,
);
