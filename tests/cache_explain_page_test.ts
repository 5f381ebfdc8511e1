/**
 * The Cache page's "Why isn't this URL cached?" form: a GET search form (role, label) on the
 * page for every member, whose answer the server renders with data attributes naming the
 * kind, eligibility, key, the reason the last origin answer was not stored and the last purge;
 * a URL off the tenant's hosts is an alert naming the field, never a 500.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { memberWithRole } from "./roles.ts";

dbTest("Cache page: the why-not-cached form and its server-rendered answer", async (app) => {
  const up = startUpstream();
  up.route(
    "/ns.png",
    () =>
      new Response("png", {
        headers: { "content-type": "image/png", "cache-control": "no-store" },
      }),
  );
  try {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { originUrl: up.url, cacheMode: "origin" });
    await new Client(app).get(`http://${slug}.localhost:8000/ns.png`);
    await owner.post(`/api/tenants/${slug}/purge`, { prefixes: ["/ns"] });
    const viewer = await memberWithRole(app, owner, slug, "viewer");

    const empty = (await viewer.get(`/dashboard/${slug}/cache`)).text;
    assertMatch(
      empty,
      /<form[^>]*method="get"[^>]*role="search"[^>]*aria-label="Why isn't this URL cached\?"/,
    );
    assertMatch(empty, /<label for="explain-url">URL or path<\/label>/);
    assertMatch(empty, /<input[^>]*id="explain-url"[^>]*name="url"/);
    assert(!empty.includes("data-explain-kind"), "no answer before a URL is asked");

    const page = await viewer.get(`/dashboard/${slug}/cache?url=%2Fns.png#why`);
    assertEquals(page.status, 200);
    const html = page.text;
    assertMatch(html, /<input[^>]*id="explain-url"[^>]*value="\/ns.png"/);
    assertMatch(html, /data-explain-kind="asset"/);
    assertMatch(html, /data-explain-eligible="true"/);
    assertMatch(html, /<dd data-explain-key><code>s\|\d+\|/);
    assertMatch(html, /<dd data-explain-stored="none">/);
    assertMatch(html, /<dd data-explain-origin-status="200"[^>]*data-explain-reason="no-store"/);
    assertMatch(html, /<dd data-explain-purge="prefix">[^<]*<code>\/ns<\/code>/);

    const post = (await viewer.get(`/dashboard/${slug}/cache?url=%2Fns.png&method=POST`)).text;
    assertMatch(post, /data-explain-eligible="false"/);
    assertMatch(post, /<li data-blocker="method">/);

    const bad = await viewer.get(`/dashboard/${slug}/cache?url=http%3A%2F%2Fother.example%2Fa`);
    assertEquals(bad.status, 200);
    assertMatch(bad.text, /<p[^>]*role="alert"[^>]*>Invalid url: other.example is not one of/);
  } finally {
    await up.close();
  }
});
