/**
 * The log-in and sign-up forms work before and without JavaScript: they post (never
 * GET, which would put the password in the URL) to the page routes, which answer with a
 * redirect or the form again with the refusal in place. Expired sessions come back.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";

const PASSWORD = "correct horse battery";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

dbTest("GET /login and /signup: the forms post to the page route, never GET", async (app) => {
  for (const path of ["/login", "/signup"]) {
    const r = await new Client(app).get(`${path}?next=%2Fdashboard%2Facme`);
    assertEquals(r.status, 200);
    const tag = r.text.match(/<form[^>]*>/)?.[0] ?? "";
    assertStringIncludes(tag, 'method="post"');
    assertStringIncludes(tag, `action="${path}?next=%2Fdashboard%2Facme"`);
    assertStringIncludes(r.text, 'autocomplete="email"');
  }
});

dbTest("POST /signup (no JavaScript) creates the account and goes to next", async (app) => {
  const c = new Client(app);
  const r = await c.post(
    "/signup?next=%2Fdashboard%2Fx",
    form({ email: "nojs@example.com", password: PASSWORD }),
    FORM,
  );
  assertEquals(r.status, 303);
  assertEquals(r.headers.get("location"), "/dashboard/x");
  const me = await c.get("/api/auth/me");
  assertEquals(me.status, 200);
  assertEquals(me.body.user.email, "nojs@example.com");
});

dbTest(
  "POST /login (no JavaScript) logs in; a wrong password shows the form again",
  async (app) => {
    const user = await signUp(app);
    const wrong = await new Client(app).post(
      "/login",
      form({ email: user.email, password: "not the password" }),
      FORM,
    );
    assertEquals(wrong.status, 401);
    assertStringIncludes(wrong.text, 'role="alert"');
    assertStringIncludes(wrong.text, "Invalid email or password");
    assertStringIncludes(wrong.text, `value="${user.email}"`, "the email is kept");
    assert(!wrong.text.includes("not the password"), "the password is never echoed");

    const bad = await new Client(app).post("/login", form({ email: "x", password: "" }), FORM);
    assertEquals(bad.status, 400);
    assertStringIncludes(bad.text, "Invalid email");

    const c = new Client(app);
    const ok = await c.post("/login", form({ email: user.email, password: PASSWORD }), FORM);
    assertEquals(ok.status, 303);
    assertEquals(ok.headers.get("location"), "/dashboard");
    assertEquals((await c.get("/dashboard")).status, 200);
  },
);

dbTest("POST /login from another site is refused (login CSRF)", async (app) => {
  const user = await signUp(app);
  const r = await new Client(app).post(
    "/login",
    form({ email: user.email, password: PASSWORD }),
    { ...FORM, origin: "https://evil.example" },
  );
  assertEquals(r.status, 403);
  assert(!r.headers.get("set-cookie"), "no session for a cross-site post");
});

dbTest("an expired session on a page leads to log-in and back to that page", async (app) => {
  const user = await signUp(app);
  for (const k of [...user.cookies.keys()]) user.cookies.set(k, "expired-or-unknown");
  const r = await user.get("/dashboard/acme?tab=cache");
  assertEquals(r.status, 302);
  assertEquals(r.headers.get("location"), "/login?next=%2Fdashboard%2Facme%3Ftab%3Dcache");
  const back = await new Client(app).post(
    "/login?next=%2Fdashboard%2Facme%3Ftab%3Dcache",
    form({ email: user.email, password: PASSWORD }),
    FORM,
  );
  assertEquals(back.headers.get("location"), "/dashboard/acme?tab=cache");
});
