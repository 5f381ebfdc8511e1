// Regenerate (SPEC "Regenerate behaviour") and execute (X-AI-Transform-Key), end to end.
import { assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, signUp } from "./harness.ts";
import { activeRule, aiTest, runs } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { readSnapshot, writeSnapshot } from "../lib/kv/snapshot.ts";

const KEY = "transform-key-0123456789";
const rule = {
  presetId: "rewrite_tone",
  tone: "formal",
  fieldSelector: "items[*].title",
  profile: "formal",
  routePattern: "/posts",
};
const posts = { items: [{ title: "hello", img: "https://images.ctfassets.net/a/b.png" }] };

async function setup(app: Parameters<Parameters<typeof aiTest>[1]>[0]) {
  const up = startUpstream();
  up.route("/posts", () => Response.json(posts));
  up.route(
    "/posts/html",
    () => new Response("<p>x</p>", { headers: { "content-type": "text/html" } }),
  );
  up.route("/posts/down", () => new Response("boom", { status: 503 }));
  // an endless body: the fetch must stop at the body bound (lib/net/guarded_fetch.ts); random
  // bytes, since Deno.serve may gzip a JSON body and padding would hardly grow on the wire
  up.route("/posts/huge", () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull: (ctrl) => ctrl.enqueue(crypto.getRandomValues(new Uint8Array(65536))),
      }),
      { headers: { "content-type": "application/json" } },
    ));
  up.route("/posts/echo", (req) =>
    Response.json({
      items: [{ title: `token ${req.headers.get("authorization")?.slice(7)}` }],
      next: `https://cms.example/next?access_token=${req.headers.get("authorization")?.slice(7)}`,
    }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    cms: "contentful",
    apiOrigin: up.url,
    apiAuthMode: "bearer",
    token: "secret-tok",
  });
  await activeRule(owner, slug, rule);
  return { up, owner, slug, path: `/api/tenants/${slug}/ai-transform/regenerate` };
}

// ---- happy ----

aiTest(
  "regenerate fetches upstream with credentials, rewrites URLs, transforms, bumps the version",
  async (app, fake) => {
    const t = await setup(app);
    try {
      const before = (await readSnapshot(app.services.kv, t.slug))!.ai.regenVersions.formal;
      const r = await t.owner.post(t.path, { profile: "formal", apiPath: "/posts?limit=1" });
      assertEquals(r.status, 200, r.text);
      assertEquals(Object.keys(r.body).sort(), [
        "apiPath",
        "body",
        "errorCode",
        "profile",
        "regenVersion",
        "skipReason",
        "stats",
        "status",
      ]);
      assertEquals(r.body.status, "applied");
      assertEquals(r.body.skipReason, null);
      assertEquals(r.body.errorCode, null);
      assertEquals(r.body.regenVersion, before + 1);
      assertEquals(r.body.stats.fieldsTransformed, 1);
      assertEquals(r.body.stats.modelCalls, 1);
      assertEquals(r.body.body.items[0].title, "[T] hello");
      // Same rewriting as the edge: the provider asset host becomes the tenant host.
      assertStringIncludes(r.body.body.items[0].img, `${t.slug}.localhost:8000`);
      const seen = t.up.seen.at(-1)!;
      assertEquals(seen.path, "/posts");
      assertEquals(seen.query, "limit=1");
      assertEquals(seen.headers.get("authorization"), "Bearer secret-tok");
      const snap = await readSnapshot(app.services.kv, t.slug);
      assertEquals(snap!.ai.regenVersions.formal, before + 1);
      assertEquals(fake.calls.length, 1);
      assertEquals((await runs(t.owner, t.slug, "?mode=runtime")).total, 1);
    } finally {
      await t.up.close();
    }
  },
);

aiTest("execute runs the runtime pipeline for a remote edge", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  await activeRule(owner, slug, rule);
  const c = new Client(app);
  const r = await c.post("/api/ai-transform/execute", {
    tenant: slug,
    profile: "formal",
    url: `http://${slug}.localhost:8000/~api/posts/1?x=1`,
    payload: posts,
  }, { "x-ai-transform-key": KEY });
  assertEquals(r.status, 200, r.text);
  assertEquals(r.body.items[0].title, "[T] hello");
  assertEquals(r.headers.get("x-ai-transform"), "applied");
  const pass = await c.post("/api/ai-transform/execute", {
    tenant: slug,
    profile: "formal",
    url: "/~api/other",
    payload: posts,
  }, { "x-ai-transform-key": KEY });
  assertEquals(pass.status, 200);
  assertEquals(pass.body, posts);
  assertEquals(pass.headers.get("x-ai-transform"), "skipped");
  assertEquals(pass.headers.get("x-ai-transform-skip-reason"), "no-matching-rule");
}, { env: { AI_TRANSFORM_KEY: KEY } });

aiTest(
  "regenerate scrubs an echoed upstream credential before the model and the response",
  async (app, fake) => {
    const t = await setup(app);
    try {
      const r = await t.owner.post(t.path, { profile: "formal", apiPath: "/posts/echo" });
      assertEquals(r.status, 200, r.text);
      assertEquals(
        r.text.includes("secret-tok"),
        false,
        "the write-only token never reaches an editor",
      );
      assertEquals(fake.calls[0].items, ["token "]);
      assertEquals(JSON.stringify(fake.calls[0].body).includes("secret-tok"), false);
    } finally {
      await t.up.close();
    }
  },
);

// ---- errors ----

aiTest(
  "regenerate: 400 validation and non-JSON upstream, 404 no rules or no match, 502 upstream",
  async (app, fake) => {
    const t = await setup(app);
    try {
      const cases: [Record<string, unknown>, number][] = [
        [{ profile: "formal", apiPath: "posts" }, 400],
        [{ apiPath: "/posts" }, 400],
        [{ profile: "formal", apiPath: "/posts/../admin" }, 400],
        [{ profile: "formal", apiPath: "/posts/html" }, 400],
        [{ profile: "nope", apiPath: "/posts" }, 404],
        [{ profile: "formal", apiPath: "/pages" }, 404],
        [{ profile: "formal", apiPath: "/posts/down" }, 502],
      ];
      for (const [body, status] of cases) {
        const r = await t.owner.post(t.path, body);
        assertEquals(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      }
      const huge = await t.owner.post(t.path, { profile: "formal", apiPath: "/posts/huge" });
      assertEquals([huge.status, huge.body.error.code, huge.body.error.message], [
        502,
        "upstream_error",
        "Upstream body too large",
      ]);
      const unknown = await t.owner.post(`/api/tenants/nope/ai-transform/regenerate`, {
        profile: "formal",
        apiPath: "/posts",
      });
      assertEquals(unknown.status, 404);
      await t.up.close();
      const unreachable = await t.owner.post(t.path, { profile: "formal", apiPath: "/posts" });
      assertEquals(unreachable.status, 502);
      assertEquals(fake.calls.length, 0);
      const snap = await readSnapshot(app.services.kv, t.slug);
      assertEquals(snap!.ai.regenVersions.formal, 2, "failed regenerates bump nothing");
    } finally {
      await t.up.close().catch(() => {});
    }
  },
);

aiTest(
  "execute: 401 for a missing or wrong key, 400 missing fields, 404 unknown tenant, 500 failure",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    await activeRule(owner, slug, rule);
    const c = new Client(app);
    const body = { tenant: slug, profile: "formal", url: "/posts", payload: posts };
    const path = "/api/ai-transform/execute";
    assertEquals((await c.post(path, body)).status, 401);
    assertEquals((await c.post(path, body, { "x-ai-transform-key": KEY + "x" })).status, 401);
    assertEquals(
      (await c.post(path, body, { "x-ai-transform-key": KEY.slice(0, -1) })).status,
      401,
    );
    for (const field of ["tenant", "profile", "url", "payload"]) {
      const partial: Record<string, unknown> = { ...body };
      delete partial[field];
      const r = await c.post(path, partial, { "x-ai-transform-key": KEY });
      assertEquals(r.status, 400, field);
      assertEquals(r.body.error.details.fields[0].path, field);
    }
    const unknown = await c.post(path, { ...body, tenant: "nope" }, { "x-ai-transform-key": KEY });
    assertEquals(unknown.status, 404);
    // An internal failure (a corrupt rule in the stored snapshot) is a 500, never a crash.
    const snap = (await readSnapshot(app.services.kv, slug))!;
    snap.ai.rules[0].fieldSelector = "items..title";
    await writeSnapshot(app.services.kv, snap);
    const broken = await c.post(path, body, { "x-ai-transform-key": KEY });
    assertEquals(broken.status, 500);
    assertEquals(broken.body.error.code, "transform_failed");
  },
  { env: { AI_TRANSFORM_KEY: KEY } },
);

aiTest("execute refuses every key when AI_TRANSFORM_KEY is not configured", async (app) => {
  const c = new Client(app);
  const r = await c.post("/api/ai-transform/execute", {
    tenant: "x",
    profile: "p",
    url: "/",
    payload: {},
  }, { "x-ai-transform-key": "" });
  assertEquals(r.status, 401);
});

// ---- security ----

aiTest("regenerate is editor+ and tenant-isolated", async (app) => {
  const t = await setup(app);
  try {
    const outsider = await signUp(app);
    const theirs = await createTenant(outsider);
    const r = await outsider.post(t.path, { profile: "formal", apiPath: "/posts" });
    assertEquals(r.status, 404);
    // The outsider's own tenant has no active rules: their regenerate finds nothing of ours.
    const own = await outsider.post(`/api/tenants/${theirs}/ai-transform/regenerate`, {
      profile: "formal",
      apiPath: "/posts",
    });
    assertEquals(own.status, 404);
    assertEquals(t.up.seen.length, 0, "no upstream request on behalf of another tenant");
  } finally {
    await t.up.close();
  }
});
