/**
 * Tenant provider set-up: one identifier per kind with derived origins,
 * website domain, TTLs, names customers already use, and bad input (400 naming
 * the field). Then the end-to-end path: the snapshot the edge reads.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

const T = "http://shop.localhost:8000";

// ---- happy ----

dbTest("each kind is set up from one identifier and shows its derived origins", async (app) => {
  const owner = await signUp(app);
  const cases: Array<[Record<string, unknown>, string | null, string[]]> = [
    [{ cms: "contentful", spaceId: "abc123xyz" }, "https://cdn.contentful.com/spaces/abc123xyz", [
      "https://images.ctfassets.net/abc123xyz",
      "https://videos.ctfassets.net/abc123xyz",
      "https://assets.ctfassets.net/abc123xyz",
      "https://downloads.ctfassets.net/abc123xyz",
    ]],
    [{ cms: "prismic", repository: "acme-repo" }, "https://acme-repo.cdn.prismic.io/api/v2", [
      "https://images.prismic.io/acme-repo",
      "https://acme-repo.cdn.prismic.io/acme-repo",
    ]],
    [{ cms: "sanity", projectId: "p1x2" }, "https://p1x2.apicdn.sanity.io", [
      "https://cdn.sanity.io/images/p1x2/production",
      "https://cdn.sanity.io/files/p1x2/production",
    ]],
    [{ cms: "shopify", storeDomain: "Acme.MyShopify.com" }, "https://acme.myshopify.com/api", [
      "https://acme.myshopify.com/cdn/shop",
    ]],
    [{ cms: "imgix", imgixDomain: "acme.imgix.net" }, null, ["https://acme.imgix.net"]],
    [{ cms: "storyblok", region: "us" }, "https://api-us.storyblok.com/v2/cdn", [
      "https://a-us.storyblok.com",
    ]],
    [{ cms: "generic", originUrl: "https://bucket.s3.amazonaws.com/site/" }, null, [
      "https://bucket.s3.amazonaws.com/site",
    ]],
  ];
  let i = 0;
  for (const [body, api, assets] of cases) {
    const slug = `prov${i++}`;
    const r = await owner.post("/api/tenants", {
      slug,
      websiteDomain: "www.acme.example",
      ...body,
    });
    assertEquals(r.status, 201, JSON.stringify(r.body));
    const v = (await owner.get(`/api/tenants/${slug}`)).body.value;
    assertEquals(v.apiOrigin, api, slug);
    assertEquals(v.providerOrigins.api, api, slug);
    assertEquals(v.providerOrigins.assets.map((o: { url: string }) => o.url), assets, slug);
    assertMatch(v.sampleAsset.clean, new RegExp(`^http://${slug}\\.localhost:8000/`));
    const snap = await readSnapshot(app.services.kv, slug);
    assertEquals(snap?.provider?.cms, body.cms);
    assertEquals(snap?.assets?.referer, "https://www.acme.example/");
  }
});

dbTest("an explicit apiOrigin wins; changing the identifier moves a derived one", async (app) => {
  const owner = await signUp(app);
  await owner.post("/api/tenants", {
    slug: "shop",
    cms: "shopify",
    storeDomain: "a.myshopify.com",
  });
  const changed = await owner.put("/api/tenants/shop", { storeDomain: "b.myshopify.com" });
  assertEquals(changed.status, 200);
  assertEquals(changed.body.value.apiOrigin, "https://b.myshopify.com/api");
  assertEquals(
    changed.body.value.sampleAsset.clean,
    `${T}/cdn/shop/files/hero.jpg?v=1700000000&width=800`,
  );
  const own = await owner.put("/api/tenants/shop", { apiOrigin: "https://api.example.com" });
  assertEquals(own.body.value.apiOrigin, "https://api.example.com");
  const again = await owner.put("/api/tenants/shop", { storeDomain: "c.myshopify.com" });
  assertEquals(again.body.value.apiOrigin, "https://api.example.com", "explicit origin kept");
  await owner.post("/api/tenants", {
    slug: "ctf",
    cms: "contentful",
    spaceId: "abcd1234",
    apiOrigin: "https://preview.contentful.com/spaces/abcd1234",
  });
  const v = (await owner.get("/api/tenants/ctf")).body.value;
  assertEquals(v.apiOrigin, "https://preview.contentful.com/spaces/abcd1234");
});

dbTest(
  "TTLs: apiCacheTTL (default 60) and assetCacheTTL (default one day); cacheTTL is its former name",
  async (app) => {
    const owner = await signUp(app);
    await owner.post("/api/tenants", { slug: "shop", cms: "storyblok" });
    let v = (await owner.get("/api/tenants/shop")).body.value;
    assertEquals([v.apiCacheTTL, v.cacheTTL, v.assetCacheTTL], [60, 60, 86400]);
    v = (await owner.put("/api/tenants/shop", { apiCacheTTL: 3600, assetCacheTTL: 31_536_000 }))
      .body.value;
    assertEquals([v.apiCacheTTL, v.cacheTTL, v.assetCacheTTL], [3600, 3600, 31_536_000]);
    v = (await owner.put("/api/tenants/shop", { cacheTTL: 10 })).body.value;
    assertEquals(v.apiCacheTTL, 10);
    const snap = await readSnapshot(app.services.kv, "shop");
    assertEquals([snap?.cacheTtl, snap?.assets?.ttl], [10, 31_536_000]);
  },
);

dbTest("names customers use: previewBypassParam, apiTokenHeader, auth mode token", async (app) => {
  const owner = await signUp(app);
  const r = await owner.post("/api/tenants", {
    slug: "shop",
    cms: "generic",
    apiOrigin: "https://api.example.com",
    previewBypassParam: "draft",
    apiAuthMode: "header",
    apiTokenHeader: "X-Api-Key",
  });
  assertEquals(r.status, 201);
  let v = (await owner.get("/api/tenants/shop")).body.value;
  assertEquals([v.previewParam, v.apiAuthHeader], ["draft", "X-Api-Key"]);
  const cfg = await owner.put("/api/tenants/shop/api-config", {
    apiAuthMode: "token",
    apiCacheTTL: 120,
    previewBypassParam: "p",
  });
  assertEquals(cfg.status, 200);
  v = (await owner.get("/api/tenants/shop")).body.value;
  assertEquals([v.apiAuthMode, v.apiCacheTTL, v.previewParam], ["token", 120, "p"]);
});

dbTest("the preview parameter defaults to `preview`; bots blocked; every type", async (app) => {
  const owner = await signUp(app);
  await owner.post("/api/tenants", { slug: "shop", cms: "storyblok" });
  const v = (await owner.get("/api/tenants/shop")).body.value;
  assertEquals(v.previewParam, "preview");
  assertEquals([v.blockBots, v.allowImageSearchBots], [true, false]);
  // unset serves every type, as in the original product (the dashboard preselects)
  assertEquals(v.allowedTypes, ["*/*"]);
  const put = await owner.put("/api/tenants/shop", {
    allowedTypes: ["image", "application/pdf"],
    blockBots: false,
    allowImageSearchBots: true,
  });
  assertEquals(put.body.value.allowedTypes, ["image", "application/pdf"]);
  const snap = await readSnapshot(app.services.kv, "shop");
  assertEquals(snap?.api.previewParam, "preview");
  assertEquals(snap?.assets, {
    ttl: 86400,
    allowedTypes: ["image", "application/pdf"],
    blockBots: false,
    allowImageSearchBots: true,
    referer: null,
    stripQueryTypes: [],
  });
  const reset = await owner.put("/api/tenants/shop", { allowedTypes: null });
  assertEquals(reset.body.value.allowedTypes, ["*/*"]);
});

// ---- errors ----

dbTest("bad identifiers, website domains, TTLs and types are 400 naming the field", async (app) => {
  const owner = await signUp(app);
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ cms: "contentful", spaceId: "../x" }, "spaceId"],
    [{ cms: "prismic", repository: "Not_A_Repo" }, "repository"],
    [{ cms: "sanity", projectId: "p-x" }, "projectId"],
    [{ cms: "sanity", projectId: "px", dataset: "a b" }, "dataset"],
    [{ cms: "shopify", storeDomain: "https://x.myshopify.com" }, "storeDomain"],
    [{ cms: "shopify" }, "storeDomain"],
    [{ cms: "imgix" }, "imgixDomain"],
    [{ cms: "imgix", imgixDomain: "x" }, "imgixDomain"],
    [{ cms: "storyblok", region: "moon" }, "region"],
    [{ cms: "generic", originUrl: "ftp://x.example" }, "originUrl"],
    [{ cms: "generic", videoOrigin: "https://x.example/?a=1" }, "videoOrigin"],
    [{ cms: "contentful", repository: "acme" }, "repository"],
    [{ cms: "contentful", websiteDomain: "not a domain" }, "websiteDomain"],
    [{ cms: "contentful", websiteDomain: "https://www.acme.example/" }, "websiteDomain"],
    [{ cms: "contentful", apiCacheTTL: 5 }, "apiCacheTTL"],
    [{ cms: "contentful", apiCacheTTL: 3601 }, "apiCacheTTL"],
    [{ cms: "contentful", cacheTTL: 0 }, "cacheTTL"],
    [{ cms: "contentful", assetCacheTTL: 31_536_001 }, "assetCacheTTL"],
    [{ cms: "contentful", allowedTypes: ["text/html; x"] }, "allowedTypes.0"],
    [{ cms: "contentful", apiAuthMode: "magic" }, "apiAuthMode"],
  ];
  let i = 0;
  for (const [body, field] of bad) {
    const r = await owner.post("/api/tenants", { slug: `bad${i++}`, ...body });
    assertEquals(r.status, 400, `${JSON.stringify(body)} → ${r.status}`);
    assertEquals(r.body.error.code, "bad_request");
    assertMatch(r.body.error.message, new RegExp(`^Invalid ${field.replace(".", "\\.")}:`), field);
  }
  // the same on update
  await owner.post("/api/tenants", { slug: "okay1", cms: "contentful", spaceId: "abcd" });
  const u = await owner.put("/api/tenants/okay1", { spaceId: "AB/CD" });
  assertEquals(u.status, 400);
  assertMatch(u.body.error.message, /^Invalid spaceId:/);
  const ttl = await owner.put("/api/tenants/okay1/api-config", { apiCacheTTL: 9999 });
  assertEquals(ttl.status, 400);
  assertMatch(ttl.body.error.message, /^Invalid apiCacheTTL:/);
});

// ---- dashboard ----

dbTest(
  "dashboard: the create form asks each kind's identifier; the tenant page shows the clean URL",
  async (app) => {
    const owner = await signUp(app);
    const home = await owner.get("/dashboard");
    // every kind can be picked; only the picked kind's fields show
    for (
      const kind of [
        "contentful",
        "prismic",
        "sanity",
        "shopify",
        "cloudinary",
        "imgix",
        "storyblok",
        "generic",
      ]
    ) {
      assertMatch(home.text, new RegExp(`<option[^>]*value="${kind}"`), kind);
      const picked = await owner.get(`/dashboard?cms=${kind}`);
      assertEquals(
        [...picked.text.matchAll(/data-provider-kind="([a-z]+)"/g)].map((m) => m[1]),
        [kind],
      );
    }
    assertEquals((home.text.match(/data-provider-kind=/g) ?? []).length, 1, "contentful first");
    assertMatch(home.text, /name="spaceId"/);
    assertMatch(home.text, /https:\/\/images\.ctfassets\.net\/\{spaceId\}/);
    await owner.post("/api/tenants", {
      slug: "shop",
      cms: "prismic",
      repository: "acme-repo",
      websiteDomain: "www.acme.example",
    });
    const page = await owner.get("/dashboard/shop/assets");
    assertEquals(page.status, 200);
    const sample = (await owner.get("/api/tenants/shop")).body.value.sampleAsset.clean as string;
    assertMatch(
      page.text,
      new RegExp(sample.replace(/[.?*+^$()|[\]\\]/g, "\\$&").replaceAll("&", "&amp;")),
    );
    assertMatch(page.text, /https:\/\/acme-repo\.cdn\.prismic\.io\/acme-repo/);
  },
);

// ---- usage ----

dbTest(
  "bots refused on assets are counted as blocked, not as requests or bandwidth",
  async (app) => {
    const owner = await signUp(app);
    await owner.post("/api/tenants", { slug: "shop", cms: "imgix", imgixDomain: "acme.imgix.net" });
    const anon = new Client(app);
    for (const ua of ["GPTBot/1.2", "CCBot/2.0"]) {
      const r = await anon.get("http://shop.localhost:8000/a.png", { "user-agent": ua });
      assertEquals(r.status, 403);
    }
    await app.instance.usageAggregator.flush();
    const u = (await owner.get("/api/tenants/shop/usage")).body.current;
    assertEquals([u.blocked, u.requests, u.bytes], [2, 0, 0]);
  },
);

dbTest(
  "a generic tenant needs originUrl; clearing apiTokenHeader restores the default auth",
  async (app) => {
    const owner = await signUp(app);
    // Nothing to serve: every asset would be a 404.
    const bare = await owner.post("/api/tenants", { slug: "bare", cms: "generic" });
    assertEquals(bare.status, 400, bare.text);
    assertMatch(bare.body.error.message, /^Invalid originUrl:/);
    const ok = await owner.post("/api/tenants", {
      slug: "shop",
      cms: "generic",
      originUrl: "https://assets.example.com",
      apiOrigin: "https://api.example.com",
      apiTokenHeader: "X-Api-Key",
    });
    assertEquals(ok.status, 201, ok.text);
    let v = (await owner.get("/api/tenants/shop")).body.value;
    assertEquals([v.apiAuthMode, v.apiAuthHeader], ["header", "X-Api-Key"]);
    const cleared = await owner.put("/api/tenants/shop", { apiTokenHeader: null });
    assertEquals(cleared.status, 200, cleared.text);
    v = (await owner.get("/api/tenants/shop")).body.value;
    assertEquals([v.apiAuthMode, v.apiAuthHeader], ["bearer", null]);
    const viaConfig = await owner.put("/api/tenants/shop/api-config", { apiTokenHeader: null });
    assertEquals(viaConfig.status, 200, viaConfig.text);
  },
);
