/**
 * Tenant settings as the original product documents them:
 * cacheTTL per kind, apiTokenHeader alone, allowedTypes unset = every type, transformApiUrls
 * and X-Parsed, and http/private origins with ALLOW_PRIVATE_UPSTREAMS. The real app over a
 * loopback upstream, through the tenant host.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { DEFAULT_ALLOWED_TYPES } from "../lib/providers/content_types.ts";

const host = (slug: string) => `http://${slug}.localhost:8000`;

// ---- cacheTTL ----

dbTest("cacheTTL is the asset TTL of imgix and generic, the API TTL elsewhere", async (app) => {
  const owner = await signUp(app);
  const gen = await owner.post("/api/tenants", {
    slug: "files",
    cms: "generic",
    originUrl: "https://bucket.s3.amazonaws.com",
    cacheTTL: 86400 * 7,
  });
  assertEquals(gen.status, 201, gen.text);
  let v = (await owner.get("/api/tenants/files")).body.value;
  assertEquals([v.cacheTTL, v.assetCacheTTL, v.apiCacheTTL], [604800, 604800, 60]);
  assertEquals((await readSnapshot(app.services.kv, "files"))?.assets?.ttl, 604800);
  v = (await owner.put("/api/tenants/files", { cacheTTL: 3600 * 48 })).body.value;
  assertEquals(v.assetCacheTTL, 172800);
  // api-config is an API context: cacheTTL there is the API TTL whatever the kind
  const cfg = await owner.put("/api/tenants/files/api-config", { cacheTTL: 120 });
  assertEquals(cfg.status, 200, cfg.text);
  v = (await owner.get("/api/tenants/files")).body.value;
  assertEquals([v.apiCacheTTL, v.assetCacheTTL], [120, 172800]);

  const ctf = await owner.post("/api/tenants", {
    slug: "ctf",
    cms: "contentful",
    spaceId: "abc123",
    cacheTTL: 300,
  });
  assertEquals(ctf.status, 201);
  v = (await owner.get("/api/tenants/ctf")).body.value;
  assertEquals([v.cacheTTL, v.apiCacheTTL, v.assetCacheTTL], [300, 300, 86400]);

  const bad: Array<[Record<string, unknown>, string]> = [
    [{ cms: "contentful", spaceId: "abcd", cacheTTL: 86400 }, "cacheTTL"],
    [{ cms: "imgix", imgixDomain: "a.imgix.net", cacheTTL: 10 }, "cacheTTL"],
    [{ cms: "generic", cacheTTL: 31_536_001 }, "cacheTTL"],
  ];
  for (const [body, field] of bad) {
    const r = await owner.post("/api/tenants", { slug: "bad", ...body });
    assertEquals(r.status, 400, JSON.stringify(body));
    assertMatch(r.body.error.message, new RegExp(`^Invalid ${field}:`));
  }
});

// ---- apiTokenHeader ----

dbTest("apiTokenHeader alone moves the credential to that header", async (app) => {
  const up = startUpstream();
  try {
    const owner = await signUp(app);
    const r = await owner.post("/api/tenants", {
      slug: "keyed",
      cms: "generic",
      apiOrigin: up.url,
      token: "secret-token-1",
      apiTokenHeader: "X-Api-Key",
    });
    assertEquals(r.status, 201, r.text);
    assertEquals((await owner.get("/api/tenants/keyed")).body.value.apiAuthMode, "header");
    const anon = new Client(app);
    assertEquals((await anon.get(`${host("keyed")}/~api/a`)).status, 200);
    const seen = up.seen.at(-1)!;
    assertEquals(seen.headers.get("x-api-key"), "secret-token-1");
    assertEquals(seen.headers.get("authorization"), null);

    // a query-mode kind (prismic's access_token) moves to the header on update too
    const pr = await owner.post("/api/tenants", {
      slug: "prs",
      cms: "prismic",
      repository: "acme",
      apiOrigin: up.url,
      token: "secret-token-2",
    });
    assertEquals(pr.status, 201, pr.text);
    assertEquals((await owner.get("/api/tenants/prs")).body.value.apiAuthMode, "query");
    const put = await owner.put("/api/tenants/prs", { apiTokenHeader: "Prismic-Token" });
    assertEquals([put.body.value.apiAuthMode, put.body.value.apiAuthHeader], [
      "header",
      "Prismic-Token",
    ]);
    await anon.get(`${host("prs")}/~api/b`);
    const b = up.seen.at(-1)!;
    assertEquals([b.headers.get("prismic-token"), b.query], ["secret-token-2", ""]);
  } finally {
    await up.close();
  }
});

// ---- allowedTypes ----

dbTest(
  "allowedTypes unset serves every type; */* is accepted; a list still refuses",
  async (app) => {
    const up = startUpstream();
    const typed = (type: string, body: string) => () =>
      new Response(body, { headers: { "content-type": type } });
    up.route("/page.html", typed("text/html", "<p>hi</p>"));
    up.route("/data.json", typed("application/json", '{"a":1}'));
    up.route("/pack.zip", typed("application/zip", "PK"));
    up.route("/a.png", typed("image/png", "png"));
    try {
      const owner = await signUp(app);
      const r = await owner.post("/api/tenants", {
        slug: "all",
        cms: "generic",
        originUrl: up.url,
      });
      assertEquals(r.status, 201, r.text);
      assertEquals((await owner.get("/api/tenants/all")).body.value.allowedTypes, ["*/*"]);
      const anon = new Client(app);
      for (const p of ["/page.html", "/data.json", "/pack.zip", "/a.png"]) {
        const res = await anon.get(`${host("all")}${p}`);
        assertEquals(res.status, 200, `${p}: ${res.text}`);
        assertEquals(res.headers.get("x-content-type-options"), "nosniff");
      }
      const safe = await owner.put("/api/tenants/all", { allowedTypes: ["image"] });
      assertEquals(safe.status, 200);
      assertEquals((await anon.get(`${host("all")}/page.html`)).status, 403);
      assertEquals((await anon.get(`${host("all")}/a.png`)).status, 200);
      const every = await owner.put("/api/tenants/all", { allowedTypes: ["*/*"] });
      assertEquals(every.status, 200, every.text);
      assertEquals((await anon.get(`${host("all")}/pack.zip`)).status, 200);
      const unset = await owner.put("/api/tenants/all", { allowedTypes: null });
      assertEquals(unset.body.value.allowedTypes, ["*/*"]);
    } finally {
      await up.close();
    }
  },
);

dbTest("tenants made before keep the safe list (migration 0018)", async (app) => {
  const owner = await signUp(app);
  await owner.post("/api/tenants", { slug: "old", cms: "imgix", imgixDomain: "a.imgix.net" });
  await owner.post("/api/tenants", {
    slug: "own",
    cms: "imgix",
    imgixDomain: "b.imgix.net",
    allowedTypes: ["image"],
  });
  const db = app.services.dbHandle;
  await db.query(`UPDATE tenants SET settings = settings - 'allowedTypes' WHERE slug = 'old'`);
  const sql = await Deno.readTextFile(
    new URL("../lib/db/migrations/0018_migrate_allowed_types.sql", import.meta.url),
  );
  await db.query(sql);
  const v = (await owner.get("/api/tenants/old")).body.value;
  assertEquals(v.allowedTypes, [...DEFAULT_ALLOWED_TYPES]);
  assertEquals((await owner.get("/api/tenants/own")).body.value.allowedTypes, ["image"]);
});

// ---- transformApiUrls, X-Parsed ----

dbTest("transformApiUrls off keeps bodies as sent; rewritten answers say X-Parsed", async (app) => {
  const up = startUpstream();
  up.route("/doc", () => Response.json({ img: `${up.url}/img/a.png` }));
  up.route("/raw.bin", () => new Response("x", { headers: { "content-type": "image/png" } }));
  try {
    const owner = await signUp(app);
    const rw = await owner.post("/api/tenants", {
      slug: "rwx",
      cms: "generic",
      originUrl: up.url,
      apiOrigin: up.url,
      apiAuthMode: "none",
    });
    assertEquals(rw.status, 201, rw.text);
    assertEquals((await owner.get("/api/tenants/rwx")).body.value.transformApiUrls, true);
    const anon = new Client(app);
    const on = await anon.get(`${host("rwx")}/~api/doc`);
    assertEquals(on.body.img, `${host("rwx")}/img/a.png`);
    assertEquals(on.headers.get("x-parsed"), "true");
    const hit = await anon.get(`${host("rwx")}/~api/doc`);
    assertEquals([hit.headers.get("x-cachely-cache"), hit.headers.get("x-parsed")], [
      "HIT",
      "true",
    ]);
    assertEquals((await anon.get(`${host("rwx")}/raw.bin`)).headers.get("x-parsed"), null);

    const put = await owner.put("/api/tenants/rwx", { transformApiUrls: false });
    assertEquals(put.body.value.transformApiUrls, false);
    const off = await anon.get(`${host("rwx")}/~api/doc`);
    assertEquals(off.body.img, `${up.url}/img/a.png`);
    assertEquals(off.headers.get("x-parsed"), null);
    const bad = await owner.put("/api/tenants/rwx", { transformApiUrls: "no" });
    assertEquals(bad.status, 400);
    assertMatch(bad.body.error.message, /^Invalid transformApiUrls:/);
  } finally {
    await up.close();
  }
});

// ---- ALLOW_PRIVATE_UPSTREAMS ----

dbTest(
  "with ALLOW_PRIVATE_UPSTREAMS, http and private origins pass in every origin field",
  async (app) => {
    const up = startUpstream();
    up.route("/m/a.png", () => new Response("png", { headers: { "content-type": "image/png" } }));
    up.route("/v/b.mp4", () => new Response("mp4", { headers: { "content-type": "video/mp4" } }));
    try {
      const owner = await signUp(app);
      const r = await owner.post("/api/tenants", {
        slug: "minio",
        cms: "generic",
        originUrl: `${up.url}/m`,
        videoOrigin: `${up.url}/v`,
        apiOrigin: `http://localhost:${new URL(up.url).port}`,
        websiteOrigin: "http://10.0.0.5:3000",
      });
      assertEquals(r.status, 201, r.text);
      const v = (await owner.get("/api/tenants/minio")).body.value;
      assertEquals(v.providerOrigins.assets.map((o: { url: string }) => o.url), [
        `${up.url}/m`,
        `${up.url}/v`,
      ]);
      const anon = new Client(app);
      assertEquals((await anon.get(`${host("minio")}/a.png`)).text, "png");
      assertEquals((await anon.get(`${host("minio")}/b.mp4`)).text, "mp4");
    } finally {
      await up.close();
    }
  },
);

dbTest(
  "without ALLOW_PRIVATE_UPSTREAMS, an http or private origin is 400 naming the field",
  async (app) => {
    const owner = await signUp(app);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ originUrl: "http://bucket.example.com" }, "originUrl"],
      [
        { originUrl: "https://93.184.215.14", videoOrigin: "http://v.example.com" },
        "videoOrigin",
      ],
      [{ originUrl: "https://127.0.0.1:9000" }, "originUrl"],
      [{ apiOrigin: "http://api.example.com" }, "apiOrigin"],
    ];
    for (const [body, field] of bad) {
      const r = await owner.post("/api/tenants", { slug: "nope", cms: "generic", ...body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assertMatch(r.body.error.message, new RegExp(`^Invalid ${field}:`), r.text);
    }
  },
  { env: { ALLOW_PRIVATE_UPSTREAMS: "false" } },
);
