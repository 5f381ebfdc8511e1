/**
 * Security cases of AI experiments management kept together: another tenant's experiment
 * ids are 404 on every route and change nothing, writes need editor (403), sessions are
 * required (401), and bad input is 400 naming the field (NUL, over-long, wrong types,
 * out-of-range numbers and ids).
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest } from "./harness.ts";
import { createExperiment, team } from "./experiments_helpers.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

const TWO = [{ key: "control" }, { key: "b" }];

const exps = (slug: string, rest = "") => `/api/tenants/${slug}/ai-experiments${rest}`;

dbTest("experiments: bad input is 400 naming the field", async (app) => {
  const t = await team(app);
  const e = await createExperiment(t.owner, t.slug, {
    name: "Tone",
    variants: [{ key: "a" }, { key: "b" }],
  });
  const bad = (method: string, rest: string, body: unknown, field?: string) => ({
    method,
    path: exps(t.slug, rest),
    body,
    status: 400,
    field,
  });
  await expectRefusals(t.owner, [
    bad("POST", "", { name: "a\u0000b" }, "name"),
    bad("POST", "", { name: over(200) }, "name"),
    bad("POST", "", { name: 12 }, "name"),
    bad("POST", "", { name: "x", variants: TWO, routePattern: "/" + over(4096) }, "routePattern"),
    bad("POST", "", { name: "x", variants: TWO, routePattern: "/a\u0000" }, "routePattern"),
    bad("POST", "", { name: "x", variants: [{ key: "a", weight: 10_001 }] }, "variants.0.weight"),
    bad("POST", "", { name: "x", variants: [{ key: "a", label: over(120) }] }, "variants.0.label"),
    bad("POST", "", {
      name: "x",
      variants: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}` })),
    }, "variants"),
    bad("POST", "", { name: "x", variants: { key: "a" } }, "variants"),
    bad("PATCH", `/${e.id}`, { name: "n\u0000" }, "name"),
    bad("PATCH", `/${e.id}`, { status: "live" }, "status"),
    bad("PUT", `/${e.id}/variants`, { variants: [{ key: "a\u0000" }] }, "variants.0.key"),
    bad("GET", `/${e.id}/exposures?goal=a%00b`, undefined, "goal"),
    bad("GET", `/${e.id}/exposures?goal=${over(80)}`, undefined, "goal"),
    bad("GET", "/2147483648", undefined),
    bad("PATCH", "/99999999999999999999", { name: "n" }),
    bad("DELETE", "/1e3", undefined),
  ]);
  const still = await t.owner.get(exps(t.slug, `/${e.id}`));
  assertEquals([still.body.name, still.body.status], ["Tone", "draft"]);
});

dbTest("experiments: another tenant's experiment is 404 everywhere and unchanged", async (app) => {
  const a = await team(app);
  const b = await team(app);
  const e = await createExperiment(b.owner, b.slug, {
    name: "Secret plan",
    variants: [{ key: "a" }, { key: "b" }],
  });
  const mine = (rest: string) => exps(a.slug, rest);
  await expectRefusals(a.owner, [
    { method: "GET", path: mine(`/${e.id}`), status: 404 },
    { method: "PATCH", path: mine(`/${e.id}`), body: { name: "taken" }, status: 404 },
    { method: "DELETE", path: mine(`/${e.id}`), status: 404 },
    {
      method: "PUT",
      path: mine(`/${e.id}/variants`),
      body: { variants: [{ key: "z" }] },
      status: 404,
    },
    { method: "GET", path: mine(`/${e.id}/exposures`), status: 404 },
    { method: "GET", path: exps(b.slug, `/${e.id}`), status: 404 },
  ]);
  const list = await a.owner.get(exps(a.slug));
  assert(!echoes(list.body, "Secret plan"), list.text);
  const theirs = await b.owner.get(exps(b.slug, `/${e.id}`));
  assertEquals(theirs.body.name, "Secret plan");
  assertEquals(theirs.body.variants.map((v: { key: string }) => v.key), ["a", "b"]);
});

dbTest("experiments: 401 anonymous, 403 for viewer writes", async (app) => {
  const t = await team(app);
  const e = await createExperiment(t.owner, t.slug, {
    name: "Tone",
    variants: [{ key: "control" }, { key: "b" }],
  });
  const writes = [
    { method: "POST", path: exps(t.slug), body: { name: "x" } },
    { method: "PATCH", path: exps(t.slug, `/${e.id}`), body: { name: "y" } },
    { method: "DELETE", path: exps(t.slug, `/${e.id}`) },
    { method: "PUT", path: exps(t.slug, `/${e.id}/variants`), body: { variants: [] } },
  ];
  await expectRefusals(new Client(app), [
    { method: "GET", path: exps(t.slug), status: 401 },
    ...writes.map((w) => ({ ...w, status: 401 })),
  ]);
  await expectRefusals(t.viewer, writes.map((w) => ({ ...w, status: 403 })));
  assertEquals((await t.viewer.get(exps(t.slug, `/${e.id}`))).body.name, "Tone");
});
