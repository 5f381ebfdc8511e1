// End to end: ?transform=<profile> on the tenant host, through the real edge, the real
// runner, the real openai SDK and a fake OpenAI server, with a fake upstream CMS.
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, signUp } from "./harness.ts";
import { activeRule, aiTest, runs } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";

const posts = {
  items: [{ title: "hello", body: "b1" }, { title: "world", body: "b2" }],
};

async function tenantWithUpstream(app: Parameters<Parameters<typeof aiTest>[1]>[0]) {
  const up = startUpstream();
  up.route("/posts", () => Response.json(posts));
  up.route(
    "/page",
    () => new Response("<html></html>", { headers: { "content-type": "text/html" } }),
  );
  const owner = await signUp(app);
  const slug = await createTenant(owner, {
    apiOrigin: up.url,
    apiAuthMode: "bearer",
    token: "tok",
  });
  await activeRule(owner, slug, {
    presetId: "rewrite_tone",
    tone: "formal",
    fieldSelector: "items[*].title",
    profile: "formal",
  });
  return { up, owner, slug, host: `http://${slug}.localhost:8000` };
}

// ---- happy ----

aiTest(
  "200 concurrent ?transform requests for one key make exactly 1 model call",
  async (app, fake) => {
    const t = await tenantWithUpstream(app);
    try {
      // Slow model, so all requests arrive while the first is still being transformed.
      fake.program(({ items }) => ({ items: items.map((s) => `[T] ${s}`), delayMs: 300 }));
      const visitor = new Client(app);
      const all = await Promise.all(
        Array.from({ length: 200 }, () => visitor.get(`${t.host}/~api/posts?transform=formal`)),
      );
      assertEquals(fake.calls.length, 1);
      for (const r of all) {
        assertEquals(r.status, 200);
        assertEquals(r.headers.get("x-ai-transform"), "applied");
        assertEquals(r.body.items[0].title, "[T] hello");
        assertEquals(r.body.items[0].body, "b1");
      }
      assertEquals(t.up.count("/posts"), 1, "one upstream fetch too");
      const again = await visitor.get(`${t.host}/~api/posts?transform=formal`);
      assertEquals(again.headers.get("x-cachely-cache"), "HIT");
      assertEquals(fake.calls.length, 1);
      const plain = await visitor.get(`${t.host}/~api/posts`);
      assertEquals(plain.body, posts, "the untransformed response is cached apart");
      assertEquals((await runs(t.owner, t.slug, "?mode=runtime")).total, 1);
    } finally {
      await t.up.close();
    }
  },
);

aiTest(
  "regenerate bumps only that profile's version: the next request misses and re-stores",
  async (app, fake) => {
    const t = await tenantWithUpstream(app);
    try {
      await activeRule(t.owner, t.slug, {
        presetId: "shorten",
        fieldSelector: "items[*].body",
        profile: "short",
      });
      const visitor = new Client(app);
      await visitor.get(`${t.host}/~api/posts?transform=formal`);
      await visitor.get(`${t.host}/~api/posts?transform=short`);
      const calls = fake.calls.length;
      fake.program(({ items }) => ({ items: items.map((s) => `[NEW] ${s}`) }));
      const regen = await t.owner.post(`/api/tenants/${t.slug}/ai-transform/regenerate`, {
        profile: "formal",
        apiPath: "/~api/posts",
      });
      assertEquals(regen.status, 200, regen.text);
      assertEquals(regen.body.profile, "formal");
      assertEquals(regen.body.apiPath, "/posts");
      assertEquals(regen.body.status, "applied");
      // Cached values of the unchanged rule are reused: no new model call for them.
      assertEquals(fake.calls.length, calls);
      const formal = await visitor.get(`${t.host}/~api/posts?transform=formal`);
      assertEquals(
        formal.headers.get("x-cachely-cache"),
        "MISS",
        "new regenerate version, new key",
      );
      assertEquals(formal.body.items[0].title, "[T] hello");
      const short = await visitor.get(`${t.host}/~api/posts?transform=short`);
      assertEquals(short.headers.get("x-cachely-cache"), "HIT", "the other profile is untouched");
    } finally {
      await t.up.close();
    }
  },
);

aiTest(
  "fail-open at the edge: model errors and non-JSON bodies pass through with a reason",
  async (app, fake) => {
    const t = await tenantWithUpstream(app);
    try {
      fake.program(() => ({ status: 500 }));
      const visitor = new Client(app);
      const r = await visitor.get(`${t.host}/~api/posts?transform=formal`);
      assertEquals(r.status, 200);
      assertEquals(r.body, posts);
      assertEquals(r.headers.get("x-ai-transform"), "skipped");
      assert(r.headers.get("x-ai-transform-skip-reason"), "a skip reason is given");
      const html = await visitor.get(`${t.host}/~api/page?transform=formal`);
      assertEquals(html.text, "<html></html>");
      assertEquals(html.headers.get("x-ai-transform"), "skipped");
      const unknown = await visitor.get(`${t.host}/~api/posts?transform=nope`);
      assertEquals(unknown.body, posts);
      assertEquals(unknown.headers.get("x-ai-transform"), "skipped");
    } finally {
      await t.up.close();
    }
  },
);

aiTest(
  "a Contentful rule's routePattern matches with or without the apiOrigin's /spaces/<id>",
  async (app) => {
    const up = startUpstream();
    up.route("/spaces/abc123xyz/environments/master/entries", () => Response.json(posts));
    up.route("/spaces/abc123xyz/environments/master/assets", () => Response.json(posts));
    const owner = await signUp(app);
    // The derived apiOrigin's shape: https://cdn.contentful.com/spaces/<id>
    const slug = await createTenant(owner, {
      cms: "contentful",
      spaceId: "abc123xyz",
      apiOrigin: `${up.url}/spaces/abc123xyz`,
      token: "tok",
    });
    const rule = {
      presetId: "rewrite_tone",
      tone: "formal",
      fieldSelector: "items[*].title",
    };
    // The docs' form (the Contentful URL path) and the path after /~api.
    await activeRule(owner, slug, {
      ...rule,
      profile: "docs",
      routePattern: "/spaces/abc123xyz/environments/master/entries",
    });
    await activeRule(owner, slug, {
      ...rule,
      profile: "short",
      routePattern: "/environments/master/entries",
    });
    try {
      const visitor = new Client(app);
      for (const profile of ["docs", "short"]) {
        const r = await visitor.get(
          `http://${slug}.localhost:8000/~api/environments/master/entries?transform=${profile}`,
        );
        assertEquals(r.status, 200, r.text);
        assertEquals(
          [r.headers.get("x-ai-transform"), r.headers.get("x-ai-transform-skip-reason")],
          ["applied", null],
          profile,
        );
        assertEquals(r.body.items[0].title, "[T] hello");
      }
      const other = await visitor.get(
        `http://${slug}.localhost:8000/~api/environments/master/assets?transform=docs`,
      );
      assertEquals(other.headers.get("x-ai-transform-skip-reason"), "no-matching-rule");
    } finally {
      await up.close();
    }
  },
);
