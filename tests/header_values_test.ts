/**
 * Header values (docs/decisions.md "Header values"): no answer carries a control byte other
 * than HTAB in a header value, which Deno 2.9's HTTP/1 writer panics on (the process ends).
 * Redirect targets come from safeNext(); whatever else reaches the host router's last guard
 * is refused 400 naming the header. In process: the values are read before any writer sees
 * them (tests/header_fuzz_test.ts sends the bytes to a real process).
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, signUp, testConfig } from "./harness.ts";
import { isMarkedChecked, isSafeHeaderValue } from "../lib/http/header_value.ts";
import { guardResponse } from "../lib/http/response_guard.ts";
import { responseWith } from "../edge/http.ts";
import { routeByHost } from "../lib/http/host_router.ts";
import type { Edge } from "../edge/types.ts";

/** Every control byte the rule refuses (all but HTAB) and DEL. */
export const CONTROL_BYTES = [...Array(32).keys(), 0x7f].filter((b) => b !== 9);
const hex = (b: number) => b.toString(16).padStart(2, "0").toUpperCase();

Deno.test("the header rule: every control byte but HTAB is refused, obs-text kept", () => {
  for (const b of CONTROL_BYTES) {
    assert(!isSafeHeaderValue(`a${String.fromCharCode(b)}b`), `0x${hex(b)}`);
  }
  for (const ok of ["a\tb", "a b", "é", "\u00ff", "", "text/html; charset=utf-8"]) {
    assert(isSafeHeaderValue(ok), JSON.stringify(ok));
  }
  assert(!isSafeHeaderValue("\u0100"), "past 0xFF: not a byte");
});

dbTest(
  "a trailing-slash redirect keeps the path encoded: no control byte in Location",
  async (app) => {
    const anon = new Client(app);
    for (const prefix of ["/dashboard", "/account"]) {
      for (const b of CONTROL_BYTES) {
        const r = await anon.get(`${prefix}/%${hex(b)}/`);
        const location = r.headers.get("location") ?? "";
        assert(isSafeHeaderValue(location), `${prefix}/%${hex(b)}/ → ${JSON.stringify(location)}`);
        assertEquals([r.status, location], [301, `${prefix}/%${hex(b)}`]);
      }
    }
    const kept = await anon.get("/dashboard/acme/?tab=a%0Bb");
    assertEquals(kept.headers.get("location"), "/dashboard/acme?tab=a%0Bb");
  },
);

dbTest("POST /verify-email/dismiss: next= goes through safeNext()", async (app) => {
  const user = await signUp(app);
  for (const b of CONTROL_BYTES) {
    const r = await user.request("POST", "/verify-email/dismiss", `next=%2F%${hex(b)}%2Fx`, {
      "content-type": "application/x-www-form-urlencoded",
    });
    assertEquals([r.status, r.headers.get("location")], [303, "/dashboard"], `0x${hex(b)}`);
  }
});

Deno.test("the host router's last guard: a header value breaking the rule is a 400 naming it", async () => {
  const config = testConfig();
  const bad = () => new Response("x", { headers: { "x-a": "a\x0bb", location: "/a\x7f" } });
  const edge = {
    handle: bad,
    resolveDomain: () => Promise.resolve(null),
  } as unknown as Edge;
  const handler = routeByHost(config, edge, () => Promise.resolve(bad()));
  for (const host of ["acme.localhost:8000", "localhost:8000"]) {
    const res = await handler(new Request(`http://${host}/x`));
    const body = await res.json();
    assertEquals(res.status, 400, host);
    assertEquals(body.error.code, "bad_request");
    assert(body.error.message.includes("location") || body.error.message.includes("x-a"));
    assertEquals(body.error.details.headers.sort(), ["location", "x-a"]);
    assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  }
  const fine = routeByHost(
    config,
    { ...edge, handle: () => new Response("ok") },
    () => Promise.resolve(bad()),
  );
  assertEquals((await fine(new Request("http://acme.localhost:8000/x"))).status, 200);
});

dbTest(
  "every JSON answer of the management app carries X-Content-Type-Options: nosniff",
  async (app) => {
    const user = await signUp(app);
    const anon = new Client(app);
    const answers = [
      await user.get("/api/tenants"),
      await user.get("/api/openapi.json"),
      await anon.get("/api/tenants"),
      await anon.get("/api/no-such-route"),
      await anon.post("/api/auth/login", { email: "x" }),
      await anon.get("/metrics"),
    ];
    for (const r of answers) {
      assert((r.headers.get("content-type") ?? "").includes("json"), r.text);
      assertEquals(r.headers.get("x-content-type-options"), "nosniff", `${r.status} ${r.text}`);
    }
  },
);

Deno.test("responseWith: checks its pairs as it sets them, so the last guard need not walk the Headers", async () => {
  const ok = responseWith("{}", 200, [["content-type", "application/json"], ["x-a", "é b\t"]]);
  assert(isMarkedChecked(ok));
  assertEquals(guardResponse(ok), ok);
  // a value breaking the rule leaves the Response unmarked: the guard still refuses it
  const bad = responseWith("{}", 200, [["x-a", "ok"], ["x-b", "a\u0001b"]]);
  assert(!isMarkedChecked(bad));
  const refused = guardResponse(bad);
  assertEquals(refused.status, 400);
  await refused.body?.cancel();
});
