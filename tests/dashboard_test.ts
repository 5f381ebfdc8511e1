import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

dbTest("GET /login and /signup render real forms that post", async (app) => {
  const anon = new Client(app);
  for (const path of ["/login", "/signup"]) {
    const r = await anon.get(path);
    assertEquals(r.status, 200);
    assertStringIncludes(r.text, "<!doctype html>");
    assertStringIncludes(r.text, 'method="post"');
    assert(!/<form(?![^>]*method="post")/.test(r.text), "every form posts");
    assertStringIncludes(r.text, "/static/build/islands.js");
  }
});

dbTest("GET /dashboard redirects anonymous visitors to /login and back", async (app) => {
  const r = await new Client(app).get("/dashboard");
  assertEquals(r.status, 302);
  assertEquals(r.headers.get("location"), "/login?next=%2Fdashboard");
});

dbTest(
  "GET /dashboard lists the caller's tenants and a tenant page shows its config",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { token: "CANARY-dash" });
    const list = await owner.get("/dashboard");
    assertEquals(list.status, 200);
    assertStringIncludes(list.text, `/dashboard/${slug}`);
    const detail = await owner.get(`/dashboard/${slug}`);
    assertEquals(detail.status, 200);
    assertStringIncludes(detail.text, `http://${slug}.localhost:8000`);
    assertStringIncludes(detail.text, "token stored");
    assert(!detail.text.includes("CANARY"), "the token never reaches a page");
  },
);

dbTest("a tenant page is 404 for a non-member", async (app) => {
  const owner = await signUp(app);
  const other = await signUp(app);
  const slug = await createTenant(owner);
  const r = await other.get(`/dashboard/${slug}`);
  assertEquals(r.status, 404);
  assertStringIncludes(r.text, 'data-error-code="not_found"');
});

dbTest("POST /logout ends the session", async (app) => {
  const owner = await signUp(app);
  const r = await owner.post("/logout");
  assertEquals(r.status, 303);
  assertEquals((await owner.get("/api/auth/me")).status, 401);
});

dbTest("every page names an inline icon, so browsers do not ask for /favicon.ico", async (app) => {
  // Without it each page load logged a 404 for /favicon.ico in the browser console.
  const page = await new Client(app).get("/login");
  assertStringIncludes(page.text, '<link rel="icon" href="data:,"/>');
  assertEquals((await new Client(app).get("/favicon.ico")).status, 404);
});

dbTest("a page path with a trailing slash redirects to the page, never off-site", async (app) => {
  // Before: /dashboard/ and /dashboard/<slug>/cache/ answered "Not found".
  const owner = await signUp(app);
  const r = await owner.get("/dashboard/?cms=sanity");
  assertEquals(r.status, 301);
  assertEquals(r.headers.get("location"), "/dashboard?cms=sanity");
  assertEquals((await owner.get("/account//")).headers.get("location"), "/account");
  assertEquals((await owner.get("//evil.example/")).headers.get("location"), null);
  assertEquals((await owner.get("/dashboardx/")).status, 404);
});

dbTest("GET /static serves CSS and refuses traversal", async (app) => {
  const anon = new Client(app);
  const css = await anon.get("/static/app.css");
  assertEquals(css.status, 200);
  assertEquals(css.headers.get("content-type"), "text/css; charset=utf-8");
  assertEquals((await anon.get("/static/../deno.json")).status, 404);
  assertEquals((await anon.get("/static/%2e%2e/deno.json")).status, 404);
});

dbTest(
  "GET /invites/accept: anonymous visitors get log-in links that come back; members get the button",
  async (app) => {
    const anon = new Client(app);
    const r = await anon.get("/invites/accept?token=cly_inv_abc");
    assertEquals(r.status, 200);
    assertStringIncludes(r.text, "/login?next=%2Finvites%2Faccept%3Ftoken%3Dcly_inv_abc");
    const user = await signUp(app);
    const signed = await user.get("/invites/accept?token=cly_inv_abc");
    assertStringIncludes(signed.text, 'name="_api" value="/api/invites/accept"');
    const login = await anon.get("/login?next=%2Finvites%2Faccept%3Ftoken%3Dx");
    assertStringIncludes(login.text, "/invites/accept?token=x");
  },
);

dbTest(
  "/login and /signup never carry a foreign or control-laden next into the form",
  async (app) => {
    const anon = new Client(app);
    for (const path of ["/login", "/signup"]) {
      const r = await anon.get(
        `${path}?next=${encodeURIComponent("/\t/evil.example/c?e={email}&p={password}")}`,
      );
      assertEquals(r.status, 200);
      assert(!r.text.includes("evil.example"), `${path} dropped the foreign next`);
      assertStringIncludes(r.text, "&quot;redirectTo&quot;:&quot;/dashboard&quot;");
    }
    // The form post without JavaScript redirects by the same rule.
    const posted = await anon.post(
      `/signup?next=${encodeURIComponent("/\t/evil.example/c")}`,
      new URLSearchParams({ email: "next@example.com", password: "correct horse battery" })
        .toString(),
      { "content-type": "application/x-www-form-urlencoded" },
    );
    assertEquals(posted.status, 303);
    assertEquals(posted.headers.get("location"), "/dashboard");
  },
);

dbTest(
  "without billing configured the dashboard has no plan card",
  async (app) => {
    const owner = await signUp(app);
    const without = await owner.get("/dashboard");
    assert(!without.text.includes("/api/billing/checkout"), "no billing, no plan card");
  },
  {},
);

dbTest("with billing on, the dashboard shows the free plan and the upgrade button", async (app) => {
  const owner = await signUp(app);
  const r = await owner.get("/dashboard");
  assertEquals(r.status, 200);
  assertStringIncludes(r.text, "<strong>free</strong> plan");
  assertStringIncludes(r.text, "up to 1 tenant(s)");
  assertStringIncludes(r.text, "/api/billing/checkout");
  assert(!r.text.includes("/api/billing/portal"), "no portal before a Stripe customer exists");
  assert(!r.text.includes("sk_test_dashboard"), "the secret key never reaches a page");
}, {
  env: { STRIPE_SECRET_KEY: "sk_test_dashboard", STRIPE_PRICE_PRO: "price_pro", QUOTAS: "on" },
});

dbTest(
  "the form bridge fills its next page from the answer, never from typed fields",
  async (app) => {
    const owner = await signUp(app);
    const r = await owner.request(
      "POST",
      "/forms",
      new URLSearchParams({
        _api: "/api/tenants",
        _method: "POST",
        _back: "/dashboard",
        _next: "/dashboard/{key}?t={token}",
        slug: "bridge-next",
        cms: "generic",
        originUrl: "https://assets.example.com",
        token: "typed-secret-token",
      }).toString(),
      { "content-type": "application/x-www-form-urlencoded" },
    );
    assertEquals(r.status, 303);
    assertEquals(r.headers.get("location"), "/dashboard/bridge-next?t=");
  },
);
