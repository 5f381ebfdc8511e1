/**
 * The tenant's HTTP caching settings: cacheMode, staleWhileRevalidate and
 * ignoreSetCookie validated on create and update (400 naming the field), shown in the view,
 * the OpenAPI document and the dashboard's cache page, and carried to the edge snapshot.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

// ---- happy ----

dbTest(
  "caching settings: defaults, set on create and update, carried to the snapshot",
  async (app) => {
    const owner = await signUp(app);
    const plain = await createTenant(owner);
    const v = (await owner.get(`/api/tenants/${plain}`)).body.value;
    assertEquals(
      [v.cacheMode, v.staleWhileRevalidate, v.ignoreSetCookie, v.staleWhenOriginSilent],
      ["fixed", 60, false, false],
    );
    assertEquals((await readSnapshot(app.services.kv, plain))?.caching, {
      cacheMode: "fixed",
      staleWhileRevalidate: 60,
      ignoreSetCookie: false,
      staleWhenOriginSilent: false,
    });
    const slug = await createTenant(owner, { cacheMode: "origin", staleWhileRevalidate: 0 });
    assertEquals((await readSnapshot(app.services.kv, slug))?.caching?.cacheMode, "origin");
    const put = await owner.put(`/api/tenants/${slug}`, {
      staleWhileRevalidate: 300,
      ignoreSetCookie: true,
      staleWhenOriginSilent: true,
    });
    assertEquals(put.status, 200);
    assertEquals(
      [
        put.body.value.cacheMode,
        put.body.value.staleWhileRevalidate,
        put.body.value.ignoreSetCookie,
      ],
      ["origin", 300, true],
    );
    assertEquals(put.body.value.staleWhenOriginSilent, true);
    assertEquals((await readSnapshot(app.services.kv, slug))?.caching, {
      cacheMode: "origin",
      staleWhileRevalidate: 300,
      ignoreSetCookie: true,
      staleWhenOriginSilent: true,
    });
  },
);

dbTest(
  "the OpenAPI document and the dashboard's cache page show the caching settings",
  async (app) => {
    const doc = (await new Client(app).get("/api/openapi.json")).text;
    for (
      const field of [
        "cacheMode",
        "staleWhileRevalidate",
        "ignoreSetCookie",
        "staleWhenOriginSilent",
      ]
    ) {
      assertStringIncludes(doc, `"${field}"`);
    }
    assertStringIncludes(doc, `"origin"`);
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cacheMode: "origin" });
    const page = (await owner.get(`/dashboard/${slug}/cache`)).text;
    assertStringIncludes(page, 'name="cacheMode"');
    assertStringIncludes(page, 'name="staleWhileRevalidate:number"');
    assertStringIncludes(page, 'name="ignoreSetCookie:bool"');
    assertStringIncludes(page, 'name="staleWhenOriginSilent:bool"');
    assert(/<option[^>]*value="origin"[^>]*selected/.test(page), "the current mode is selected");
    assertStringIncludes(page, "never turn it on for pages that depend on the visitor");
  },
);

// ---- errors ----

dbTest(
  "cacheMode and staleWhileRevalidate are validated on create and update: 400 naming the field",
  async (app) => {
    const owner = await signUp(app);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ cacheMode: "sometimes" }, "cacheMode"],
      [{ cacheMode: null }, "cacheMode"],
      [{ staleWhileRevalidate: -1 }, "staleWhileRevalidate"],
      [{ staleWhileRevalidate: 86_401 }, "staleWhileRevalidate"],
      [{ staleWhileRevalidate: 1.5 }, "staleWhileRevalidate"],
      [{ staleWhileRevalidate: "60" }, "staleWhileRevalidate"],
      [{ ignoreSetCookie: "yes" }, "ignoreSetCookie"],
      [{ staleWhenOriginSilent: "yes" }, "staleWhenOriginSilent"],
      [{ staleWhenOriginSilent: null }, "staleWhenOriginSilent"],
    ];
    const slug = await createTenant(owner);
    let i = 0;
    for (const [body, field] of bad) {
      const c = await owner.post("/api/tenants", {
        slug: `bad${i++}`,
        cms: "generic",
        originUrl: "https://assets.example.com",
        ...body,
      });
      assertEquals(c.status, 400, `create ${JSON.stringify(body)}`);
      assertMatch(c.body.error.message, new RegExp(`^Invalid ${field}:`));
      const u = await owner.put(`/api/tenants/${slug}`, body);
      assertEquals(u.status, 400, `update ${JSON.stringify(body)}`);
      assertEquals(u.body.error.code, "bad_request");
      assertMatch(u.body.error.message, new RegExp(`^Invalid ${field}:`));
    }
    assertEquals((await owner.get(`/api/tenants/${slug}`)).body.value.cacheMode, "fixed");
  },
);

// ---- security ----

dbTest("only an admin changes the caching settings", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const editor = await memberWithRole(app, owner, slug, "editor");
  const r = await editor.put(`/api/tenants/${slug}`, { cacheMode: "origin" });
  assertEquals(r.status, 403);
  assertEquals((await owner.get(`/api/tenants/${slug}`)).body.value.cacheMode, "fixed");
});
