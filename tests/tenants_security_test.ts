/**
 * Bad input to the tenant API kept together: NUL in string fields, credentials and
 * header names that are not header-safe (refused at save time, so the edge never
 * meets them), and the edge's answer should an old snapshot still hold one.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";
import { CANARY, edgeFixture, startUpstream } from "./fakes/upstream.ts";

dbTest("tenant create and update: U+0000 in a string field is 400 naming it", async (app) => {
  const owner = await signUp(app);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ slug: "nul\u0000x", cms: "generic" }, "slug"],
    [{ slug: "nul-a", cms: "generic", websiteOrigin: "https://x.example/\u0000" }, "websiteOrigin"],
    [{
      slug: "nul-b",
      cms: "generic",
      originUrl: "https://assets.example.com",
      token: "abc\u0000def",
    }, "token"],
  ];
  for (const [body, field] of cases) {
    const r = await owner.post("/api/tenants", body);
    assertEquals(r.status, 400, field);
    assertEquals(r.body.error.details.fields[0].path, field);
  }
  const slug = await createTenant(owner);
  const put = await owner.put(`/api/tenants/${slug}`, { apiOrigin: "https://a.example/\u0000" });
  assertEquals(put.status, 400);
  assertEquals(put.body.error.details.fields[0].path, "apiOrigin");
});

dbTest("tokens must be header-safe: CR, LF, NUL, controls and edge spaces are 400", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (
    const token of ["abc\r\nx-injected: 1", "abc\ndef", "tab\there", " lead", "trail ", "é-token"]
  ) {
    const r = await owner.put(`/api/tenants/${slug}/api-token`, { token });
    assertEquals(r.status, 400, JSON.stringify(token));
    assertEquals(r.body.error.details.fields[0].path, "token");
    const c = await owner.post("/api/tenants", {
      slug: "tok-x",
      cms: "generic",
      originUrl: "https://assets.example.com",
      token,
    });
    assertEquals(c.status, 400, JSON.stringify(token));
  }
  const ok = await owner.put(`/api/tenants/${slug}/api-token`, { token: "Bearer-ok token.1~" });
  assertEquals(ok.status, 200);
});

dbTest("auth header names: hop-by-hop, forwarding and forbidden names are 400", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (
    const name of [
      "host",
      "Host",
      "connection",
      "transfer-encoding",
      "content-length",
      "cookie",
      "te",
      "upgrade",
      "proxy-authorization",
      "x-forwarded-for",
      "forwarded",
      "sec-fetch-site",
      "bad header",
      "x:y",
    ]
  ) {
    const r = await owner.put(`/api/tenants/${slug}/api-config`, {
      apiAuthMode: "header",
      apiAuthHeader: name,
    });
    assertEquals(r.status, 400, name);
    assertEquals(r.body.error.details.fields[0].path, "apiAuthHeader");
  }
  const ok = await owner.put(`/api/tenants/${slug}/api-config`, {
    apiAuthMode: "header",
    apiAuthHeader: "X-Api-Key",
  });
  assertEquals(ok.status, 200);
});

Deno.test("an unusable stored credential is a 502 at the edge, never a 500", async () => {
  const up = startUpstream();
  const fx = await edgeFixture(up.url);
  try {
    await fx.update({ api: { authMode: "header", authParam: "bad header" } });
    const r = await fx.request("/~api/posts");
    assertEquals(r.status, 502);
    assertMatch((await r.json()).error.code, /upstream_credentials/);
    assertEquals(up.seen.length, 0);
    assertEquals(fx.logs.some((l) => l.includes(CANARY)), false);
  } finally {
    fx.close();
    await up.close();
  }
});
