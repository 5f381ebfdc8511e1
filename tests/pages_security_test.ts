/**
 * Every dashboard page carries the security headers: a CSP whose one script carries
 * the per-response nonce, no framing, nosniff, a same-origin Referrer-Policy, and HSTS
 * exactly when PUBLIC_URL is https.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

function assertSecured(r: { status: number; headers: Headers; text: string }, what: string) {
  const csp = r.headers.get("content-security-policy") ?? "";
  assertStringIncludes(csp, "frame-ancestors 'none'", what);
  assertStringIncludes(csp, "object-src 'none'", what);
  assertEquals(r.headers.get("x-frame-options"), "DENY", what);
  assertEquals(r.headers.get("x-content-type-options"), "nosniff", what);
  assertEquals(r.headers.get("referrer-policy"), "same-origin", what);
  if ((r.headers.get("content-type") ?? "").includes("text/html") && r.text.includes("<script")) {
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    assert(nonce, `${what}: a script nonce`);
    const scripts = r.text.match(/<script\b[^>]*>/g) ?? [];
    for (const tag of scripts) assertStringIncludes(tag, `nonce="${nonce}"`, what);
  }
}

dbTest("every page, redirect and page error carries the security headers", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const anon = new Client(app);
  const paths: Array<[Client, string]> = [
    [anon, "/"],
    [anon, "/login"],
    [anon, "/signup"],
    [anon, "/dashboard"], // redirect to /login
    [anon, "/reset-password?token=x"],
    [anon, "/invites/accept?token=x"],
    [anon, "/no-such-page"],
    [anon, "/static/app.css"],
    [anon, "/api-reference"],
    [owner, "/dashboard"],
    [owner, `/dashboard/${slug}`],
    [owner, "/dashboard/not-a-tenant"],
  ];
  const nonces = new Set<string>();
  for (const [c, path] of paths) {
    const r = await c.get(path);
    assertSecured(r, path);
    assertEquals(r.headers.get("strict-transport-security"), null, "no HSTS on http");
    const n = /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy")!)?.[1];
    if (n) nonces.add(n);
  }
  assertEquals(nonces.size, paths.length, "a fresh nonce per response");
});

dbTest("HSTS is sent when PUBLIC_URL is https", async (app) => {
  const r = await new Client(app).get("/login");
  assertMatch(r.headers.get("strict-transport-security") ?? "", /^max-age=31536000/);
}, { env: { PUBLIC_URL: "https://app.example" } });
