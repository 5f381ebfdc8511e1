/**
 * stripQueryTypes: a tenant strips the query per file type (a class such as image or video,
 * or an extension such as .pdf) where its provider keeps it, so renditions or cache-busting
 * parameters of those files share one cache entry and one origin fetch. Validated (400 naming
 * the field), shown in the view, the OpenAPI document and the Assets page, carried to the edge.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { startUpstream } from "./fakes/upstream.ts";

const host = (slug: string) => `http://${slug}.localhost:8000`;

dbTest(
  "stripQueryTypes: the listed types share one entry and go upstream without the query",
  async (app) => {
    const up = startUpstream();
    const typed = (type: string) => () =>
      new Response("bytes", { headers: { "content-type": type } });
    up.route("/a.png", typed("image/png"));
    up.route("/doc.pdf", typed("application/pdf"));
    up.route("/clip.mp4", typed("video/mp4"));
    try {
      const owner = await signUp(app);
      const created = await owner.post("/api/tenants", {
        slug: "strip",
        cms: "generic",
        originUrl: up.url,
      });
      assertEquals(created.status, 201, created.text);
      assertEquals((await owner.get("/api/tenants/strip")).body.value.stripQueryTypes, []);
      const anon = new Client(app);
      const get = async (p: string) =>
        (await anon.get(`${host("strip")}${p}`)).headers.get("x-cachely-cache");
      // The generic provider keeps the query: two renditions, two entries.
      assertEquals([await get("/a.png?w=100"), await get("/a.png?w=200")], ["MISS", "MISS"]);

      const put = await owner.put("/api/tenants/strip", { stripQueryTypes: ["Image", ".PDF"] });
      assertEquals(put.status, 200, put.text);
      assertEquals(put.body.value.stripQueryTypes, ["image", ".pdf"]);
      assertEquals((await readSnapshot(app.services.kv, "strip"))?.assets?.stripQueryTypes, [
        "image",
        ".pdf",
      ]);
      const before = up.seen.length;
      assertEquals([await get("/a.png?w=300"), await get("/a.png?w=400")], ["MISS", "HIT"]);
      assertEquals([await get("/doc.pdf?v=1"), await get("/doc.pdf?v=2")], ["MISS", "HIT"]);
      // Types not listed keep their query.
      assertEquals([await get("/clip.mp4?t=1"), await get("/clip.mp4?t=2")], ["MISS", "MISS"]);
      assertEquals(
        up.seen.slice(before).map((s) => `${s.path}?${s.query}`),
        ["/a.png?", "/doc.pdf?", "/clip.mp4?t=1", "/clip.mp4?t=2"],
      );

      const cleared = await owner.put("/api/tenants/strip", { stripQueryTypes: [] });
      assertEquals(cleared.body.value.stripQueryTypes, []);
      assertEquals(await get("/a.png?w=500"), "MISS");
    } finally {
      await up.close();
    }
  },
);

dbTest(
  "stripQueryTypes: a bad entry is a 400 naming the field, on create and update",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    for (const bad of [["images"], [".p/df"], ["."], "image", [1]]) {
      const r = await owner.put(`/api/tenants/${slug}`, { stripQueryTypes: bad });
      assertEquals(r.status, 400, JSON.stringify(bad));
      assertMatch(r.body.error.message, /^Invalid stripQueryTypes/);
    }
    const r = await owner.post("/api/tenants", {
      slug: "bad-strip",
      cms: "imgix",
      imgixDomain: "a.imgix.net",
      stripQueryTypes: ["pictures"],
    });
    assertEquals(r.status, 400);
    assertMatch(r.body.error.message, /^Invalid stripQueryTypes/);
  },
);

dbTest("stripQueryTypes: in the OpenAPI document and a field of the Assets page", async (app) => {
  const doc = (await new Client(app).get("/api/openapi.json")).text;
  assert(doc.includes('"stripQueryTypes"'), "the OpenAPI document names stripQueryTypes");
  const owner = await signUp(app);
  const slug = await createTenant(owner, { stripQueryTypes: ["video"] });
  const page = (await owner.get(`/dashboard/${slug}/assets`)).text;
  assertMatch(page, /name="stripQueryTypes:list"[^>]*value="video"/);
});
