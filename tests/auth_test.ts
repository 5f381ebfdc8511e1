import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest, signUp, type TestApp } from "./harness.ts";
import { LOGIN_LIMITS } from "../routes/api/auth.ts";
import { LOGIN_THROTTLE } from "../lib/auth/throttle.ts";

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
  "wrong passwords from one address slow that address only: the owner still logs in elsewhere",
  async (app) => {
    const user = await signUp(app);
    const attacker = "198.51.100.66";
    const { freeFailures } = LOGIN_THROTTLE;
    for (let i = 0; i < freeFailures; i++) {
      assertEquals((await loginFrom(app, attacker, user.email)).status, 401, `attempt ${i}`);
    }
    // Past the free failures each one starts a growing wait for this (email, IP) pair.
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      assertEquals((await loginFrom(app, attacker, user.email)).status, 401);
      const blocked = await loginFrom(app, attacker, user.email, PASSWORD);
      assertEquals(blocked.status, 429, "even the right password waits");
      assertEquals(blocked.body.error.details.retryAfter, Number(blocked.retryAfter));
      waits.push(Number(blocked.retryAfter));
      app.clock.advance(Number(blocked.retryAfter) * 1000);
    }
    assertEquals(waits, [1, 2, 4, 8]);
    // The real owner, from their own address, is never locked out.
    assertEquals((await loginFrom(app, "203.0.113.20", user.email, PASSWORD)).status, 200);
    // Other emails from the attacker's address are not slowed by this pair.
    assertEquals((await loginFrom(app, attacker, "someone@example.com")).status, 401);
  },
);

dbTest("the growing wait is capped at 15 minutes and a success clears it", async (app) => {
  const user = await signUp(app);
  const ip = "198.51.100.67";
  for (let i = 0; i < 25; i++) {
    await loginFrom(app, ip, user.email);
    app.clock.advance(LOGIN_THROTTLE.maxDelayMs);
  }
  await loginFrom(app, ip, user.email);
  const capped = await loginFrom(app, ip, user.email, PASSWORD);
  assertEquals(capped.status, 429);
  assertEquals(Number(capped.retryAfter), 15 * 60);
  app.clock.advance(LOGIN_THROTTLE.maxDelayMs);
  assertEquals((await loginFrom(app, ip, user.email, PASSWORD)).status, 200);
  assertEquals((await loginFrom(app, ip, user.email)).status, 401, "the count starts over");
  assertEquals((await loginFrom(app, ip, user.email, PASSWORD)).status, 200);
});

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

dbTest("the CSRF check compares the full origin: scheme, host and port", async (app) => {
  const user = await signUp(app);
  for (
    const origin of ["https://localhost:8000", "http://localhost:8001", "null", "localhost:8000"]
  ) {
    const r = await user.post("/api/user/tokens", { name: "x" }, { origin });
    assertEquals(r.status, 403, origin);
    assertEquals(r.body.error.code, "csrf_failed");
  }
  assertEquals((await user.post("/api/user/tokens", { name: "x" })).status, 201);
  // The no-JavaScript form posts (log-in, the form bridge) apply the same rule.
  const form = new URLSearchParams({ email: user.email, password: PASSWORD }).toString();
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    origin: "https://localhost:8000",
  };
  const anon = new Client(app);
  assertEquals((await anon.post("/login", form, headers)).status, 403);
  const bridged = await anon.post(
    "/forms",
    new URLSearchParams({ _api: "/api/auth/login", _method: "POST", email: user.email }).toString(),
    headers,
  );
  assertEquals(bridged.status, 403);
});

dbTest(
  "log-out checks Origin like other cookie writes: a cross-site page cannot end the session",
  async (app) => {
    const user = await signUp(app);
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "http://localhost:8001" },
      { origin: "", "sec-fetch-site": "cross-site" },
      { origin: "", "sec-fetch-site": "same-site" },
    ];
    for (const headers of crossSite) {
      const api = await user.post("/api/auth/logout", undefined, headers);
      assertEquals(api.status, 403, JSON.stringify(headers));
      assertEquals(api.body.error.code, "csrf_failed");
      assertEquals(api.headers.getSetCookie(), [], "the cookie is not cleared");
      const page = await user.post("/logout", undefined, headers);
      assertEquals(page.status, 403, `page ${JSON.stringify(headers)}`);
    }
    assertEquals((await user.get("/api/auth/me")).status, 200, "the session lives on");
    assertEquals((await user.post("/api/auth/logout")).status, 200, "our own origin logs out");
    assertEquals((await user.get("/api/auth/me")).status, 401);
  },
);
