/**
 * Cookies across subdomains: start-up refuses tenant hosts on the dashboard's
 * registrable domain unless ALLOW_SHARED_COOKIE_SITE=true; on https the session cookie is
 * `__Host-` (Secure, Path=/, no Domain) and a bare `cachely_session` is never read.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { loadCheckedConfig } from "../lib/config.ts";
import { mayShareSite, sharedCookieSite } from "../lib/cookie_site.ts";
import { Client, dbTest } from "./harness.ts";

Deno.test("a PROXY_DOMAIN on PUBLIC_URL's registrable domain is refused, naming the override", async () => {
  let message = "";
  try {
    await loadCheckedConfig({ PUBLIC_URL: "https://app.cachely.app", PROXY_DOMAIN: "cachely.app" });
  } catch (e) {
    message = (e as Error).message;
  }
  assertStringIncludes(message, "cookie tossing");
  assertStringIncludes(message, "ALLOW_SHARED_COOKIE_SITE=true");
  const allowed = await loadCheckedConfig({
    PUBLIC_URL: "https://app.cachely.app",
    PROXY_DOMAIN: "cachely.app",
    ALLOW_SHARED_COOKIE_SITE: "true",
  });
  assertEquals(allowed.proxyDomain, "cachely.app");
  // Separate sites, the Public Suffix List's private section, and local use all start.
  await loadCheckedConfig({
    PUBLIC_URL: "https://dashboard.cachely.com",
    PROXY_DOMAIN: "cachely.app",
  });
  await loadCheckedConfig({ PUBLIC_URL: "http://localhost:8000", PROXY_DOMAIN: "localhost:8000" });
  await loadCheckedConfig({ PUBLIC_URL: "http://127.0.0.1:8000", PROXY_DOMAIN: "127.0.0.1:8000" });
  assertEquals(await sharedCookieSite("https://a.github.io", "b.github.io"), null);
  assertEquals(
    await sharedCookieSite("https://app.example.co.uk", "edge.example.co.uk"),
    "example.co.uk",
  );
  assertEquals(await sharedCookieSite("https://example.co.uk", "other.co.uk"), null);
  assertEquals(await sharedCookieSite("https://10.0.0.1", "10.0.0.1:8000"), "10.0.0.1");
  assertEquals(await sharedCookieSite("https://10.0.0.1", "10.0.0.2"), null);
  // Hosts that cannot share a site are told apart without the Public Suffix List.
  assertEquals(mayShareSite("dashboard.cachely.com", "cachely.app"), false);
  assertEquals(mayShareSite("app.example.co.uk", "edge.example.co.uk"), true);
});

dbTest(
  "on https the session cookie is __Host-; a bare one of the same name is ignored",
  async (app) => {
    const origin = "https://app.cachely.test";
    const user = new Client(app, origin);
    const r = await user.post("/api/auth/signup", {
      email: "hana@example.com",
      password: "correct horse battery",
    });
    assertEquals(r.status, 201, r.text);
    const cookie = r.headers.getSetCookie().find((c) => c.includes("cachely_session")) ?? "";
    assertMatch(cookie, /^__Host-cachely_session=/);
    assertStringIncludes(cookie, "Secure");
    assertStringIncludes(cookie, "Path=/;");
    assert(!/domain=/i.test(cookie), cookie);
    const token = cookie.split(";")[0].split("=")[1];
    assertEquals((await user.get("/api/auth/me")).status, 200);
    const tossed = await new Client(app, origin).get("/api/auth/me", {
      cookie: `cachely_session=${token}`,
    });
    assertEquals(tossed.status, 401, "the unprefixed name is not ours on https");
  },
  { env: { PUBLIC_URL: "https://app.cachely.test", PROXY_DOMAIN: "localhost:8000" } },
);
