import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest, signUp, type TestApp } from "./harness.ts";
import { LOGIN_LIMITS } from "../routes/api/auth.ts";

const PASSWORD = "correct horse battery";

/** A log-in attempt from a given client address (the handler reads the connection's IP). */
async function loginFrom(app: TestApp, ip: string, email: string, password = "wrong password!") {
  const res = await app.handler(
    new Request("http://localhost:8000/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:8000" },
      body: JSON.stringify({ email, password }),
    }),
    { remoteAddr: { transport: "tcp", hostname: ip, port: 40000 }, completed: Promise.resolve() },
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

// ---- happy ----

dbTest(
  "POST /api/auth/signup starts an HttpOnly SameSite=Lax session that /me reads",
  async (app) => {
    const c = new Client(app);
    const r = await c.post("/api/auth/signup", { email: "New@Example.com", password: PASSWORD });
    assertEquals(r.status, 201);
    assertEquals(r.body.user.email, "new@example.com");
    assert(!r.text.includes("argon2"), "no password hash in the response");
    const cookie = r.headers.getSetCookie()[0];
    assertMatch(cookie, /^cachely_session=[\w-]{40,};/);
    assertMatch(cookie, /HttpOnly/);
    assertMatch(cookie, /SameSite=Lax/);
    const me = await c.get("/api/auth/me");
    assertEquals(me.status, 200);
    assertEquals(me.body.user.id, r.body.user.id);
  },
);

dbTest(
  "POST /api/auth/login and logout: the session ends on the server, not just the cookie",
  async (app) => {
    const user = await signUp(app);
    const c = new Client(app);
    const r = await c.post("/api/auth/login", { email: user.email, password: PASSWORD });
    assertEquals(r.status, 200);
    const stolen = new Map(c.cookies);
    assertEquals((await c.post("/api/auth/logout")).status, 200);
    assertEquals((await c.get("/api/auth/me")).status, 401);
    const replay = new Client(app);
    replay.cookies = stolen;
    assertEquals((await replay.get("/api/auth/me")).status, 401, "the old cookie is dead");
    assertEquals((await user.get("/api/auth/me")).status, 200, "other sessions live on");
  },
);

dbTest("sessions expire after SESSION_TTL_HOURS", async (app) => {
  const user = await signUp(app);
  app.clock.advance(2 * 3_600_000 - 1000);
  assertEquals((await user.get("/api/auth/me")).status, 200);
  app.clock.advance(2000);
  assertEquals((await user.get("/api/auth/me")).status, 401);
}, { env: { SESSION_TTL_HOURS: "2" } });

// ---- errors ----

dbTest(
  "POST /api/auth/login: 401 with one message for a wrong password and an unknown email",
  async (app) => {
    const user = await signUp(app);
    const wrong = await new Client(app).post("/api/auth/login", {
      email: user.email,
      password: "not the password",
    });
    const unknown = await new Client(app).post("/api/auth/login", {
      email: "nobody@example.com",
      password: PASSWORD,
    });
    assertEquals([wrong.status, unknown.status], [401, 401]);
    assertEquals(wrong.body.error.message, unknown.body.error.message);
    assertEquals((await new Client(app).post("/api/auth/login", { email: "x" })).status, 400);
    assertEquals((await new Client(app).get("/api/auth/me")).status, 401);
  },
);

dbTest(
  "POST /api/auth/signup: 400 names the field or the password rule, 409 when registered",
  async (app) => {
    const c = new Client(app);
    const bad = await c.post("/api/auth/signup", { email: "nope", password: PASSWORD });
    assertEquals(bad.status, 400);
    assertMatch(bad.body.error.message, /^Invalid email/);
    const short = await c.post("/api/auth/signup", { email: "a@example.com", password: "short" });
    assertEquals(short.status, 400);
    assertMatch(short.body.error.message, /^Invalid password: .*at least 10/);
    const dull = await c.post("/api/auth/signup", {
      email: "b@example.com",
      password: "aaaaaaaaaaaa",
    });
    assertMatch(dull.body.error.message, /different characters/);
    await signUp(app, "taken@example.com");
    const dup = await c.post("/api/auth/signup", {
      email: "TAKEN@example.com",
      password: PASSWORD,
    });
    assertEquals(dup.status, 409);
  },
);

// ---- security ----

dbTest(
  "log-in is rate-limited per email: 429 with Retry-After, other emails unaffected",
  async (app) => {
    const user = await signUp(app);
    const { limit } = LOGIN_LIMITS.perEmail;
    // The sign-up counted as the first attempt for this email (docs/decisions.md).
    for (let i = 1; i < limit; i++) {
      assertEquals(
        (await loginFrom(app, `10.0.0.${i + 1}`, user.email)).status,
        401,
        `attempt ${i}`,
      );
    }
    // Even the right password from a new address is refused now: the email is locked.
    const locked = await loginFrom(app, "10.0.1.1", user.email, PASSWORD);
    assertEquals(locked.status, 429);
    assert(Number(locked.retryAfter) > 0 && Number(locked.retryAfter) <= 15 * 60);
    assertEquals(locked.body.error.details.retryAfter, Number(locked.retryAfter));
    assertEquals((await loginFrom(app, "10.0.1.1", "someone@example.com")).status, 401);
    app.clock.advance(LOGIN_LIMITS.perEmail.windowMs);
    assertEquals((await loginFrom(app, "10.0.1.2", user.email, PASSWORD)).status, 200);
  },
);

dbTest(
  "log-in is rate-limited per IP: 429 with Retry-After, other addresses unaffected",
  async (app) => {
    const { limit } = LOGIN_LIMITS.perIp;
    for (let i = 0; i < limit; i++) {
      assertEquals((await loginFrom(app, "203.0.113.9", `u${i}@example.com`)).status, 401);
    }
    const blocked = await loginFrom(app, "203.0.113.9", "fresh@example.com");
    assertEquals(blocked.status, 429);
    assert(Number(blocked.retryAfter) > 0);
    assertEquals((await loginFrom(app, "203.0.113.10", "fresh@example.com")).status, 401);
  },
);

dbTest(
  "cookie writes need our Origin: a cross-site Sec-Fetch-Site without Origin is refused",
  async (app) => {
    const user = await signUp(app);
    const r = await user.request("POST", "/api/user/tokens", { name: "x" }, {
      origin: "",
      "sec-fetch-site": "cross-site",
    });
    assertEquals(r.status, 403);
    assertEquals(r.body.error.code, "csrf_failed");
    const ok = await user.post("/api/user/tokens", { name: "x" });
    assertEquals(ok.status, 201);
  },
);
