import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest } from "./harness.ts";
import { activeExperiment, addRule, createExperiment, team } from "./experiments_helpers.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";

const path = (slug: string, rest = "") => `/api/tenants/${slug}/ai-experiments${rest}`;
const TWO = [{ key: "control" }, { key: "b" }];

// ---- happy ----

dbTest("POST ai-experiments creates a draft with variants; GET lists and reads it", async (app) => {
  const t = await team(app);
  const r = await t.editor.post(path(t.slug), {
    name: "Hero tone",
    routePattern: "/~api/posts/",
    variants: [
      { key: "control" },
      { key: "casual", weight: 3, config: { transformProfile: "casual" }, label: "Casual" },
    ],
  });
  assertEquals(r.status, 201);
  assertEquals(r.body.status, "draft");
  assertEquals(r.body.name, "Hero tone");
  assertEquals(r.body.routePattern, "/posts", "leading /~api and trailing slash normalised");
  assertEquals(r.body.routeMatch, "prefix");
  assertEquals(r.body.variants.length, 2);
  const [control, casual] = r.body.variants;
  assertEquals(control.key, "control");
  assertEquals(control.weight, 1);
  assertEquals(control.config, null);
  assertEquals(control.transformProfile, null);
  assertEquals(control.label, "control");
  assertEquals(casual.config, { transformProfile: "casual" });
  assertEquals(casual.transformProfile, "casual");
  assertEquals(casual.weight, 3);
  assertEquals(casual.label, "Casual");
  assert(Number.isInteger(r.body.id) && r.body.id > 0);
  assert(Number.isInteger(casual.id) && casual.id > 0);

  const got = await t.viewer.get(path(t.slug, `/${r.body.id}`));
  assertEquals(got.status, 200);
  assertEquals(got.body, r.body);
  const list = await t.viewer.get(path(t.slug));
  assertEquals(list.status, 200);
  assertEquals(list.body.experiments.map((e: { id: number }) => e.id), [r.body.id]);
  assertEquals(list.body.experiments[0].variants.length, 2);
});

dbTest("POST ai-experiments defaults: route / prefix, no variants", async (app) => {
  const t = await team(app);
  const controls = await createExperiment(t.owner, t.slug, {
    name: "Controls",
    variants: [
      { key: "a", config: null },
      { key: "b", config: {} },
      { key: "c", config: { transformProfile: null } },
      { key: "d", transformProfile: "p", config: { transformProfile: "p" } },
    ],
  });
  assertEquals(
    controls.variants.map((v: { config: unknown; transformProfile: unknown }) => [
      v.config,
      v.transformProfile,
    ]),
    [[null, null], [null, null], [null, null], [{ transformProfile: "p" }, "p"]],
  );
  const e = await createExperiment(t.owner, t.slug, { name: "Bare", variants: TWO });
  assertEquals([e.routePattern, e.routeMatch, e.status], ["/", "prefix", "draft"]);
  const exact = await createExperiment(t.owner, t.slug, {
    name: "Exact",
    routePattern: "/home/",
    routeMatch: "exact",
    variants: TWO,
  });
  assertEquals(exact.routePattern, "/home/", "exact patterns keep their trailing slash");
});

dbTest(
  "PATCH to active validates, re-syncs the snapshot, and PATCH draft removes it",
  async (app) => {
    const t = await team(app);
    await addRule(app, t.tenantId, "casual");
    const e = await createExperiment(t.owner, t.slug, {
      name: "Tone",
      routePattern: "/posts",
      variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
    });
    assertEquals((await readSnapshot(app.services.kv, t.slug))?.experiments, []);
    const r = await t.editor.patch(path(t.slug, `/${e.id}`), { status: "active", name: "Tone v2" });
    assertEquals(r.status, 200);
    assertEquals(r.body.status, "active");
    assertEquals(r.body.name, "Tone v2");
    const snap = await readSnapshot(app.services.kv, t.slug);
    assertEquals(snap?.experiments, [{
      id: e.id,
      routePattern: "/posts",
      routeMatch: "prefix",
      variants: e.variants.map((
        v: { id: number; key: string; transformProfile: string | null },
      ) => ({
        id: v.id,
        key: v.key,
        weight: 1,
        transformProfile: v.transformProfile,
      })),
    }]);
    const moved = await t.editor.patch(path(t.slug, `/${e.id}`), { routePattern: "/news" });
    assertEquals(moved.body.routePattern, "/news");
    assertEquals(
      (await readSnapshot(app.services.kv, t.slug))?.experiments[0].routePattern,
      "/news",
    );
    const off = await t.editor.patch(path(t.slug, `/${e.id}`), { status: "draft" });
    assertEquals(off.body.status, "draft");
    assertEquals((await readSnapshot(app.services.kv, t.slug))?.experiments, []);
  },
);

dbTest("PUT variants replaces the set atomically with new ids and re-syncs", async (app) => {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  await addRule(app, t.tenantId, "formal");
  const r = await t.editor.put(path(t.slug, `/${e.id}/variants`), {
    variants: [
      { key: "control", weight: 2 },
      { key: "formal", weight: 1, transformProfile: "formal" },
      { key: "casual", config: { transformProfile: "casual" } },
    ],
  });
  assertEquals(r.status, 200);
  assertEquals(r.body.variants.map((v: { key: string }) => v.key), ["control", "formal", "casual"]);
  assertEquals(r.body.variants[1].config, { transformProfile: "formal" });
  const oldIds = new Set(e.variants.map((v: { id: number }) => v.id));
  for (const v of r.body.variants) assert(!oldIds.has(v.id), "new rows get new ids");
  const snap = await readSnapshot(app.services.kv, t.slug);
  assertEquals(snap?.experiments[0].variants.map((v) => [v.key, v.weight]), [
    ["control", 2],
    ["formal", 1],
    ["casual", 1],
  ]);
  const rows = await app.services.dbHandle.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM experiment_variants WHERE experiment_id = ${e.id}`,
  );
  assertEquals(rows[0].n, 3, "old variants are deleted");
});

dbTest(
  "DELETE archives: hidden from the list, kept with variants, removed from the edge",
  async (app) => {
    const t = await team(app);
    const e = await activeExperiment(app, t);
    const r = await t.editor.delete(path(t.slug, `/${e.id}`));
    assertEquals(r.status, 200);
    assertEquals(r.body.status, "archived");
    assert(r.body.archivedAt);
    assertEquals(r.body.variants.length, 2, "variants are kept");
    assertEquals((await t.viewer.get(path(t.slug))).body.experiments, []);
    assertEquals((await t.viewer.get(path(t.slug, `/${e.id}`))).body.status, "archived");
    assertEquals((await readSnapshot(app.services.kv, t.slug))?.experiments, []);
    const again = await t.editor.delete(path(t.slug, `/${e.id}`));
    assertEquals(again.status, 200, "archiving twice is idempotent");
    assertEquals(again.body.archivedAt, r.body.archivedAt);
  },
);

dbTest("management writes are audited", async (app) => {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  await t.owner.delete(path(t.slug, `/${e.id}`));
  const audit = await t.owner.get(`/api/tenants/${t.slug}/audit-events`);
  if (audit.status === 200) {
    const actions = audit.body.events.map((x: { action: string }) => x.action);
    for (const a of ["experiment.create", "experiment.active", "experiment.archived"]) {
      assert(actions.includes(a), `${a} in ${actions}`);
    }
  } else {
    const rows = await app.services.dbHandle.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE tenant_id = ${t.tenantId}`,
    );
    const actions = rows.map((x) => x.action);
    for (const a of ["experiment.create", "experiment.active", "experiment.archived"]) {
      assert(actions.includes(a), `${a} in ${actions}`);
    }
  }
});

// ---- errors ----

dbTest(
  "PATCH to active answers 400 with each activation reason and leaves status unchanged",
  async (app) => {
    const t = await team(app);
    const one = await createExperiment(t.owner, t.slug, { name: "One arm", variants: TWO });
    // fewer than 2 can only be a draft edited down: creation refuses it
    const cut = await t.owner.put(path(t.slug, `/${one.id}/variants`), {
      variants: [{ key: "control" }],
    });
    assertEquals(cut.status, 200, cut.text);
    const r1 = await t.owner.patch(path(t.slug, `/${one.id}`), { status: "active" });
    assertEquals(r1.status, 400);
    assertMatch(r1.body.error.message, /^Activation failed: at least 2 variants/);

    const ghost = await createExperiment(t.owner, t.slug, {
      name: "Ghost profile",
      routePattern: "/ghost",
      variants: [{ key: "control" }, { key: "g", config: { transformProfile: "ghost" } }],
    });
    await addRule(app, t.tenantId, "ghost", "draft"); // a draft rule does not count
    const r2 = await t.owner.patch(path(t.slug, `/${ghost.id}`), { status: "active" });
    assertEquals(r2.status, 400);
    assertMatch(r2.body.error.message, /profile "ghost" has no active rule/);
    assertEquals((await t.owner.get(path(t.slug, `/${ghost.id}`))).body.status, "draft");

    await activeExperiment(app, t, "/posts");
    for (
      const [routePattern, routeMatch] of [
        ["/posts/1", "exact"],
        ["/posts/archive", "prefix"],
        ["/", "prefix"],
        ["/posts", "prefix"],
      ]
    ) {
      const o = await createExperiment(t.owner, t.slug, {
        name: `Overlap ${routePattern}`,
        routePattern,
        routeMatch,
        variants: [{ key: "a" }, { key: "b" }],
      });
      const r = await t.owner.patch(path(t.slug, `/${o.id}`), { status: "active" });
      assertEquals(r.status, 400, routePattern);
      assertMatch(r.body.error.message, /overlaps active experiment/);
      assertEquals(r.body.error.details.reasons.length, 1);
    }
    const fine = await createExperiment(t.owner, t.slug, {
      name: "Disjoint",
      routePattern: "/postscript",
      variants: [{ key: "a" }, { key: "b" }],
    });
    assertEquals(
      (await t.owner.patch(path(t.slug, `/${fine.id}`), { status: "active" })).status,
      200,
    );
  },
);

dbTest("an active experiment re-validates on a route change, not on a rename", async (app) => {
  const t = await team(app);
  const e = await activeExperiment(app, t, "/posts");
  await activeExperiment(app, t, "/news", [{ key: "a" }, { key: "b" }]);
  const clash = await t.owner.patch(path(t.slug, `/${e.id}`), { routePattern: "/news/latest" });
  assertEquals(clash.status, 400);
  assertMatch(clash.body.error.message, /overlaps active experiment/);
  assertEquals((await t.owner.get(path(t.slug, `/${e.id}`))).body.routePattern, "/posts");
  await app.services.dbHandle.exec(
    `UPDATE ai_rules SET status = 'draft' WHERE tenant_id = ${t.tenantId}`,
  );
  const renamed = await t.owner.patch(path(t.slug, `/${e.id}`), { name: "Renamed" });
  assertEquals(renamed.status, 200);
  const moved = await t.owner.patch(path(t.slug, `/${e.id}`), { routePattern: "/elsewhere" });
  assertEquals(moved.status, 400);
  assertMatch(moved.body.error.message, /profile "casual" has no active rule/);
});

dbTest("PUT variants on an active experiment must still pass activation", async (app) => {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  const r = await t.owner.put(path(t.slug, `/${e.id}/variants`), {
    variants: [{ key: "control" }, { key: "x", config: { transformProfile: "nope" } }],
  });
  assertEquals(r.status, 400);
  const got = await t.owner.get(path(t.slug, `/${e.id}`));
  assertEquals(
    got.body.variants.map((v: { id: number }) => v.id),
    e.variants.map((v: { id: number }) => v.id),
  );
});

dbTest("bad bodies and ids are 400 naming the field; unknown experiments 404", async (app) => {
  const t = await team(app);
  const cases: Array<[unknown, string]> = [
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "x", variants: TWO, routePattern: "posts" }, "routePattern"],
    [{ name: "x", variants: TWO, routePattern: "/a?b=1" }, "routePattern"],
    [{ name: "x", variants: TWO, routeMatch: "regex" }, "routeMatch"],
    // at least two variants at creation
    [{ name: "x" }, "variants"],
    [{ name: "x", variants: [] }, "variants"],
    [{ name: "x", variants: [{ key: "control" }] }, "variants"],
    [{ name: "x", variants: [{ key: "a" }, { key: "a" }] }, "variants.1.key"],
    [{ name: "x", variants: [{ key: "a", weight: 0 }] }, "variants.0.weight"],
    [{ name: "x", variants: [{ key: "a", weight: 1.5 }] }, "variants.0.weight"],
    [{ name: "x", variants: [{ key: "a", weight: "2" }] }, "variants.0.weight"],
    [{ name: "x", variants: [{ key: "has space" }] }, "variants.0.key"],
    [
      { name: "x", variants: [{ key: "a", config: { profile: "p" } }] },
      "variants.0.config",
    ],
    [
      { name: "x", variants: [{ key: "a", config: { transformProfile: "a b" } }] },
      "variants.0.config.transformProfile",
    ],
    [{ name: "x", variants: TWO, extra: 1 }, "(body)"],
  ];
  for (const [body, field] of cases) {
    const r = await t.owner.post(path(t.slug), body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assertEquals(r.body.error.details?.fields?.[0]?.path ?? "(body)", field, JSON.stringify(body));
  }
  assertEquals((await t.owner.post(path(t.slug), "{nope")).status, 400);
  for (const bad of ["0", "-1", "abc", "1.5"]) {
    assertEquals((await t.owner.get(path(t.slug, `/${bad}`))).status, 400, bad);
    assertEquals((await t.owner.get(path(t.slug, `/${bad}/exposures`))).status, 400, bad);
    assertEquals((await t.owner.delete(path(t.slug, `/${bad}`))).status, 400, bad);
  }
  const e = await createExperiment(t.owner, t.slug, { name: "x", variants: TWO });
  assertEquals((await t.owner.patch(path(t.slug, `/${e.id}`), { status: "paused" })).status, 400);
  assertEquals((await t.owner.patch(path(t.slug, `/${e.id}`), { routePattern: "x" })).status, 400);
  assertEquals((await t.owner.put(path(t.slug, `/${e.id}/variants`), {})).status, 400);
  const missing = e.id + 1000;
  const unknown: Array<[string, string, unknown]> = [
    ["GET", `/${missing}`, undefined],
    ["PATCH", `/${missing}`, { name: "n" }],
    ["DELETE", `/${missing}`, undefined],
    ["PUT", `/${missing}/variants`, { variants: [] }],
    ["GET", `/${missing}/exposures`, undefined],
  ];
  for (const [m, p, body] of unknown) {
    assertEquals((await t.owner.request(m, path(t.slug, p), body)).status, 404, `${m} ${p}`);
  }
  assertEquals((await t.owner.get(path("no-such-tenant"))).status, 404);
});

dbTest("concurrent activations of overlapping experiments: exactly one wins", async (app) => {
  const t = await team(app);
  const ids: number[] = [];
  for (const name of ["a", "b", "c", "d"]) {
    const e = await createExperiment(t.owner, t.slug, {
      name,
      routePattern: "/same",
      variants: [{ key: "x" }, { key: "y" }],
    });
    ids.push(e.id);
  }
  const results = await Promise.all(
    ids.map((id) => t.owner.patch(path(t.slug, `/${id}`), { status: "active" })),
  );
  assertEquals(results.map((r) => r.status).sort(), [200, 400, 400, 400]);
  const snap = await readSnapshot(app.services.kv, t.slug);
  assertEquals(snap?.experiments.length, 1);
});

// ---- security ----

dbTest(
  "roles: viewers read, editors write; others get 403, outsiders 404, anonymous 401",
  async (app) => {
    const t = await team(app);
    const e = await createExperiment(t.owner, t.slug, { name: "x", variants: TWO });
    const writes: Array<[string, string, unknown]> = [
      ["POST", "", { name: "y", variants: TWO }],
      ["PATCH", `/${e.id}`, { name: "z" }],
      ["PUT", `/${e.id}/variants`, { variants: [{ key: "b" }] }],
      ["DELETE", `/${e.id}`, undefined],
    ];
    const reads = ["", `/${e.id}`, `/${e.id}/exposures`];
    for (const r of reads) {
      assertEquals((await t.viewer.get(path(t.slug, r))).status, 200, `viewer GET ${r}`);
      assertEquals((await t.outsider.get(path(t.slug, r))).status, 404, `outsider GET ${r}`);
      assertEquals((await new Client(app).get(path(t.slug, r))).status, 401, `anon GET ${r}`);
    }
    for (const [m, p, body] of writes) {
      assertEquals(
        (await t.viewer.request(m, path(t.slug, p), body)).status,
        403,
        `viewer ${m} ${p}`,
      );
      assertEquals(
        (await t.outsider.request(m, path(t.slug, p), body)).status,
        404,
        `outsider ${m} ${p}`,
      );
      assertEquals(
        (await new Client(app).request(m, path(t.slug, p), body)).status,
        401,
        `anon ${m}`,
      );
    }
    for (const [m, p, body] of writes) {
      const r = await t.editor.request(m, path(t.slug, p), body);
      assert(r.status === 200 || r.status === 201, `editor ${m} ${p}: ${r.status} ${r.text}`);
    }
  },
);

dbTest("tenant isolation: another tenant's experiment id is 404 through my slug", async (app) => {
  const a = await team(app);
  const b = await team(app);
  const theirs = await createExperiment(b.owner, b.slug, {
    name: "theirs",
    variants: TWO,
  });
  for (
    const [m, p, body] of [
      ["GET", `/${theirs.id}`, undefined],
      ["GET", `/${theirs.id}/exposures`, undefined],
      ["PATCH", `/${theirs.id}`, { name: "pwned" }],
      ["PUT", `/${theirs.id}/variants`, { variants: [] }],
      ["DELETE", `/${theirs.id}`, undefined],
    ] as Array<[string, string, unknown]>
  ) {
    const r = await a.owner.request(m, path(a.slug, p), body);
    assertEquals(r.status, 404, `${m} ${p}`);
  }
  const still = await b.owner.get(path(b.slug, `/${theirs.id}`));
  assertEquals([still.body.name, still.body.status, still.body.variants.length], [
    "theirs",
    "draft",
    2,
  ]);
  assertEquals((await a.owner.get(path(a.slug))).body.experiments, []);
});

dbTest("activation checks profiles and overlap within the tenant only", async (app) => {
  const a = await team(app);
  const b = await team(app);
  await activeExperiment(app, a, "/posts"); // a's rule "casual" and a's active experiment
  const e = await createExperiment(b.owner, b.slug, {
    name: "b",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }],
  });
  const r = await b.owner.patch(path(b.slug, `/${e.id}`), { status: "active" });
  assertEquals(r.status, 400);
  assertEquals(r.body.error.details.reasons, ['profile "casual" has no active rule']);
});
