/**
 * Log-in and sign-up limits against address rotation: an IPv6 client picks any of the 2^64
 * addresses of its /64 at will (and often owns a /56), so the limits count IPv6 per /64 (per /56
 * for sign-ups and mails), and each account has a failure budget across all addresses: a growing
 * delay, never a lock (lib/auth/account_throttle.ts).
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, signUp, type TestApp } from "./harness.ts";
import { LOGIN_LIMITS, SIGNUP_LIMITS } from "../lib/auth/login.ts";
import { ACCOUNT_THROTTLE } from "../lib/auth/account_throttle.ts";
import { FORGOT_LIMITS } from "../lib/auth/forgot_password.ts";

const PASSWORD = "correct horse battery";

/** A JSON post from a given client address (the handler reads the connection's IP). */
async function postFrom(app: TestApp, ip: string, path: string, body: unknown) {
  const res = await app.handler(
    new Request(`http://localhost:8000${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:8000" },
      body: JSON.stringify(body),
    }),
    { remoteAddr: { transport: "tcp", hostname: ip, port: 40000 }, completed: Promise.resolve() },
  );
  return {
    status: res.status,
    retryAfter: Number(res.headers.get("retry-after")),
    body: await res.json(),
  };
}

const loginFrom = (app: TestApp, ip: string, email: string, password = "wrong password!") =>
  postFrom(app, ip, "/api/auth/login", { email, password });

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

dbTest(
  "300 wrong passwords from 60 addresses of one /64 are counted as one client",
  async (app) => {
    const user = await signUp(app);
    const statuses: number[] = [];
    for (let a = 1; a <= 60; a++) {
      for (let i = 0; i < 5; i++) {
        statuses.push((await loginFrom(app, `2001:db8:5:6::${a.toString(16)}`, user.email)).status);
      }
    }
    const t = tally(statuses);
    assert((t[401] ?? 0) <= LOGIN_LIMITS.perIp.limit, `401s: ${JSON.stringify(t)}`);
    assertEquals((t[401] ?? 0) + (t[429] ?? 0), 300, JSON.stringify(t));
    const right = await loginFrom(app, "2001:db8:5:6:ffff::1", user.email, PASSWORD);
    assertEquals(right.status, 429, "another address of the same /64 is the same client");
    // The owner, from their own network, is not locked out.
    assertEquals((await loginFrom(app, "203.0.113.20", user.email, PASSWORD)).status, 200);
  },
);

dbTest(
  "one account guessed from 300 networks: after the free failures each attempt waits, the owner gets in after the wait",
  async (app) => {
    const user = await signUp(app);
    const { freeFailures } = ACCOUNT_THROTTLE;
    const statuses: number[] = [];
    for (let i = 1; i <= 300; i++) {
      statuses.push((await loginFrom(app, `2001:db8:${i.toString(16)}::1`, user.email)).status);
    }
    // The free failures, then one more that starts the wait; the rest are refused unchecked.
    assertEquals(tally(statuses), { 401: freeFailures + 1, 429: 300 - freeFailures - 1 });
    const waiting = await loginFrom(app, "198.51.100.40", user.email, PASSWORD);
    assertEquals(waiting.status, 429, "even the right password waits: the answer says nothing");
    assertEquals(waiting.retryAfter, 1);
    assertEquals(waiting.body.error.details.retryAfter, 1);
    app.clock.advance(1_000);
    assertEquals((await loginFrom(app, "198.51.100.40", user.email, PASSWORD)).status, 200);
    // A success clears the budget.
    assertEquals((await loginFrom(app, "198.51.100.41", user.email)).status, 401);
  },
);

dbTest(
  "the account's wait doubles from 1 s and is capped at 60 s (a delay, not a lock)",
  async (app) => {
    const user = await signUp(app);
    const { freeFailures } = ACCOUNT_THROTTLE;
    for (let i = 0; i < freeFailures; i++) {
      assertEquals((await loginFrom(app, `2001:db8:a${i}::1`, user.email)).status, 401);
    }
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      assertEquals((await loginFrom(app, `2001:db8:b${i}::1`, user.email)).status, 401);
      const blocked = await loginFrom(app, `2001:db8:c${i}::1`, user.email, PASSWORD);
      assertEquals(blocked.status, 429);
      waits.push(blocked.retryAfter);
      app.clock.advance(blocked.retryAfter * 1000);
    }
    assertEquals(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    assertEquals((await loginFrom(app, "2001:db8:d::1", user.email, PASSWORD)).status, 200);
  },
);

dbTest("an unknown email is throttled exactly like a registered one", async (app) => {
  const user = await signUp(app);
  const seq = async (email: string) => {
    const out: number[] = [];
    for (let i = 0; i < ACCOUNT_THROTTLE.freeFailures + 3; i++) {
      out.push((await loginFrom(app, `2001:db8:${email.length}:${i}::1`, email)).status);
    }
    return out;
  };
  assertEquals(await seq(user.email), await seq("nobody-at-all@example.com"));
});

dbTest("an IPv4-mapped IPv6 address counts as its IPv4 address", async (app) => {
  const { limit } = LOGIN_LIMITS.perIp;
  for (let i = 0; i < limit; i++) {
    assertEquals((await loginFrom(app, "198.51.100.7", `u${i}@example.com`)).status, 401);
  }
  assertEquals((await loginFrom(app, "::ffff:198.51.100.7", "fresh@example.com")).status, 429);
  assertEquals((await loginFrom(app, "::ffff:198.51.100.8", "fresh@example.com")).status, 401);
});

dbTest("60 sign-ups from 60 networks of one /56 are counted as one client", async (app) => {
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const ip = `2001:db8:7:11${i.toString(16).padStart(2, "0")}::1`;
    statuses.push(
      (await postFrom(app, ip, "/api/auth/signup", {
        email: `new${i}@example.com`,
        password: PASSWORD,
      })).status,
    );
  }
  const { limit } = SIGNUP_LIMITS.perIp;
  assertEquals(tally(statuses), { 201: limit, 429: 60 - limit });
  // Another /56 is another client.
  const other = await postFrom(app, "2001:db8:7:1200::1", "/api/auth/signup", {
    email: "other@example.com",
    password: PASSWORD,
  });
  assertEquals(other.status, 201);
});

dbTest("reset mails are capped per /56 too", async (app) => {
  const { limit } = FORGOT_LIMITS.perIp;
  const statuses: number[] = [];
  for (let i = 0; i < limit + 5; i++) {
    const ip = `2001:db8:8:22${i.toString(16).padStart(2, "0")}::9`;
    statuses.push(
      (await postFrom(app, ip, "/api/auth/forgot-password", { email: `x${i}@example.com` })).status,
    );
  }
  assertEquals(tally(statuses), { 200: limit, 429: 5 });
});

dbTest("parallel guesses cannot share the account's free attempts", async (app) => {
  const user = await signUp(app);
  const { freeFailures } = ACCOUNT_THROTTLE;
  const all = await Promise.all(
    Array.from({ length: 40 }, (_, i) => loginFrom(app, `2001:db8:e${i}::1`, user.email)),
  );
  assertEquals(tally(all.map((r) => r.status)), { 401: freeFailures + 1, 429: 39 - freeFailures });
});

dbTest(
  "a guesser taking every free slot does not lock out the browser the owner logged in from",
  async (app) => {
    const user = await signUp(app);
    const owner = new Client(app);
    const login = (c: Client, email = user.email) =>
      c.post("/api/auth/login", { email, password: PASSWORD });
    assertEquals((await login(owner)).status, 200, "the owner's browser, known from now on");
    const { freeFailures } = ACCOUNT_THROTTLE;
    for (let i = 0; i <= freeFailures; i++) {
      assertEquals((await loginFrom(app, `2001:db8:f${i}::1`, user.email)).status, 401);
    }
    for (let round = 0; round < 5; round++) {
      const stranger = await loginFrom(app, "198.51.100.77", user.email, PASSWORD);
      assertEquals(stranger.status, 429, "a browser never seen waits like the guesser");
      app.clock.advance(stranger.retryAfter * 1000);
      // The guesser takes the slot the moment it opens ...
      assertEquals((await loginFrom(app, `2001:db8:f${round}0::1`, user.email)).status, 401);
      // ... and the owner's browser still gets in.
      assertEquals((await login(owner)).status, 200, `round ${round}`);
    }
    // The owner's cookie is for the owner's account only.
    const other = await signUp(app, "other-owner@example.com");
    for (let i = 0; i <= freeFailures; i++) {
      await loginFrom(app, `2001:db8:1${i}::1`, other.email);
    }
    assertEquals((await login(owner, other.email)).status, 429);
  },
);
