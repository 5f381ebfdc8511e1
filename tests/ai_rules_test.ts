import { assert, assertEquals, assertMatch } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";
import { roleMatrix } from "./roles.ts";
import { activeRule, rulesPath } from "./ai_helpers.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { listActiveProfiles } from "../lib/ai/profiles.ts";
import { findTenantBySlug } from "../lib/tenants/service.ts";

const tone = { presetId: "rewrite_tone", fieldSelector: "items[*].title", tone: "formal" };

// ---- happy ----

dbTest("POST rules creates a draft; GET lists it; PUT edits and bumps version", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const created = await owner.post(rulesPath(slug), { ...tone, routePattern: "/posts" });
  assertEquals(created.status, 201);
  assertEquals(created.body.status, "draft");
  assertEquals(created.body.profile, "default");
  assertEquals(created.body.routePattern, "/posts");
  assertEquals(created.body.tone, "formal");
  assertEquals(created.body.version, 1);
  const list = await owner.get(rulesPath(slug));
  assertEquals(list.status, 200);
  assertEquals(list.body.rules.map((r: { id: number }) => r.id), [created.body.id]);
  const put = await owner.put(`${rulesPath(slug)}/${created.body.id}`, {
    presetId: "translate",
    targetLanguage: "de",
    profile: "german",
  });
  assertEquals(put.status, 200, put.text);
  assertEquals(put.body.presetId, "translate");
  assertEquals(put.body.targetLanguage, "de");
  assertEquals(put.body.tone, null, "fields of the old preset are cleared");
  assertEquals(put.body.profile, "german");
  assertEquals(put.body.fieldSelector, "items[*].title", "unchanged fields stay");
  assertEquals(put.body.version, 2);
});

dbTest("custom preset carries constraints and one example pair", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const r = await owner.post(rulesPath(slug), {
    presetId: "custom",
    fieldSelector: "hero.subtitle",
    customInstruction: "Make it punchy",
    constraints: "No emojis",
    example: { input: "We sell shoes", output: "Shoes. Reinvented." },
  });
  assertEquals(r.status, 201, r.text);
  assertEquals(r.body.example, { input: "We sell shoes", output: "Shoes. Reinvented." });
  assertEquals(r.body.constraints, "No emojis");
});

dbTest("activate toggles draft ⇄ active, pause/resume, and the snapshot follows", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const created = await owner.post(rulesPath(slug), { ...tone, profile: "formal" });
  const id = created.body.id;
  assertEquals((await readSnapshot(app.services.kv, slug))?.ai.rules, []);
  const on = await owner.post(`${rulesPath(slug)}/${id}/activate`);
  assertEquals(on.body.status, "active");
  let snap = await readSnapshot(app.services.kv, slug);
  assertEquals(snap?.ai.rules.map((r) => r.id), [id]);
  assertEquals(snap?.ai.rules[0].fieldSelector, "items[*].title");
  const v1 = snap!.ai.regenVersions.formal;
  assert(v1 >= 1);
  const paused = await owner.post(`${rulesPath(slug)}/${id}/pause`);
  assertEquals(paused.body.status, "paused");
  snap = await readSnapshot(app.services.kv, slug);
  assertEquals(snap?.ai.rules, [], "paused rules do not run at runtime");
  const resumed = await owner.post(`${rulesPath(slug)}/${id}/resume`);
  assertEquals(resumed.body.status, "active");
  snap = await readSnapshot(app.services.kv, slug);
  assert(snap!.ai.regenVersions.formal > v1, "live changes move the profile's cache version");
  const off = await owner.post(`${rulesPath(slug)}/${id}/activate`);
  assertEquals(off.body.status, "draft");
  assertEquals((await readSnapshot(app.services.kv, slug))?.ai.rules, []);
  const audit = await owner.get(`/api/tenants/${slug}/audit-events`);
  const actions = audit.body.events.map((e: { action: string }) => e.action);
  assert(actions.includes("ai_transform.rule_activated"), actions.join());
  assert(actions.includes("ai_transform.rule_paused"));
});

dbTest(
  "DELETE removes a rule and it leaves the snapshot; profiles lists active ones",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const a = await activeRule(owner, slug, { ...tone, profile: "b-formal" });
    await activeRule(owner, slug, { ...tone, profile: "a-casual", tone: "casual" });
    await owner.post(rulesPath(slug), { ...tone, profile: "draft-only" });
    const prof = await owner.get(`/api/tenants/${slug}/ai-transform/profiles`);
    assertEquals(prof.status, 200);
    assertEquals(prof.body, { profiles: ["a-casual", "b-formal"] });
    const tenant = await findTenantBySlug(app.services, slug);
    assertEquals(await listActiveProfiles(app.services, tenant!.id), ["a-casual", "b-formal"]);
    const del = await owner.delete(`${rulesPath(slug)}/${a.id}`);
    assertEquals(del.status, 200);
    assertEquals(del.body, { ok: true });
    assertEquals((await owner.get(`/api/tenants/${slug}/ai-transform/profiles`)).body, {
      profiles: ["a-casual"],
    });
    const snap = await readSnapshot(app.services.kv, slug);
    assertEquals(snap?.ai.rules.map((r) => r.profile), ["a-casual"]);
  },
);

dbTest(
  "settings: GET defaults, PUT lowers limits and sets caps, snapshot carries them",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const base = `/api/tenants/${slug}/ai-transform/settings`;
    const got = await owner.get(base);
    assertEquals(got.body.settings, {
      maxFieldsPerResponse: 50,
      maxCharsPerField: 8000,
      monthlyTokenCap: null,
      dailyTokenCap: null,
    });
    const put = await owner.put(base, { maxCharsPerField: 500, dailyTokenCap: 1000 });
    assertEquals(put.status, 200, put.text);
    assertEquals(put.body.settings.maxCharsPerField, 500);
    assertEquals(put.body.settings.dailyTokenCap, 1000);
    const snap = await readSnapshot(app.services.kv, slug);
    assertEquals(snap?.ai.limits.maxCharsPerField, 500);
    assertEquals(snap?.ai.limits.dailyTokenCap, 1000);
    const cleared = await owner.put(base, { dailyTokenCap: null });
    assertEquals(cleared.body.settings.dailyTokenCap, null);
    const audit = await owner.get(`/api/tenants/${slug}/audit-events`);
    const ev = audit.body.events.find((e: { action: string }) =>
      e.action === "ai_transform.settings_updated"
    );
    assertEquals(ev.metadata, { dailyCap: null }, "the newest change, readable in the audit log");
  },
);

// ---- errors ----

dbTest("POST rules: 400 for missing preset fields, foreign fields, bad selectors", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const cases: [Record<string, unknown>, string][] = [
    [{ presetId: "rewrite_tone", fieldSelector: "a" }, "tone"],
    [{ presetId: "translate", fieldSelector: "a" }, "targetLanguage"],
    [{ presetId: "custom", fieldSelector: "a" }, "customInstruction"],
    [{ presetId: "shorten", fieldSelector: "a", tone: "formal" }, "tone"],
    [{ presetId: "shorten", fieldSelector: "a", constraints: "x" }, "constraints"],
    [{ presetId: "nope", fieldSelector: "a" }, "presetId"],
    [{ presetId: "shorten" }, "fieldSelector"],
    [{ presetId: "shorten", fieldSelector: "a", profile: "has space" }, "profile"],
    [{ presetId: "shorten", fieldSelector: "a", routePattern: "posts" }, "routePattern"],
    [{ presetId: "shorten", fieldSelector: "a", extra: 1 }, "(body)"],
  ];
  for (const [body, field] of cases) {
    const r = await owner.post(rulesPath(slug), body);
    assertEquals(r.status, 400, JSON.stringify(body));
    assertEquals(r.body.error.details.fields[0].path, field, JSON.stringify(body));
  }
  const sel = await owner.post(rulesPath(slug), {
    presetId: "shorten",
    fieldSelector: "items[*]]",
  });
  assertEquals(sel.status, 400);
  assertEquals(sel.body.error.message, 'Invalid fieldSelector: unexpected "]" at 8');
  const filter = await owner.post(rulesPath(slug), {
    presetId: "shorten",
    fieldSelector: "items[?@.x]",
  });
  assertEquals(filter.status, 400);
  assertMatch(filter.body.error.message, /^Invalid fieldSelector: .* at 6$/);
  const malformed = await owner.post(rulesPath(slug), "{nope");
  assertEquals(malformed.status, 400);
});

dbTest("PUT checks the merged rule; unknown rule ids are 404, bad ids 400", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const r = await owner.post(rulesPath(slug), tone);
  const toTranslate = await owner.put(`${rulesPath(slug)}/${r.body.id}`, { presetId: "translate" });
  assertEquals(toTranslate.status, 400);
  assertEquals(toTranslate.body.error.details.fields[0].path, "targetLanguage");
  const clearTone = await owner.put(`${rulesPath(slug)}/${r.body.id}`, { tone: null });
  assertEquals(clearTone.status, 400);
  for (
    const [method, suffix] of [
      ["PUT", ""],
      ["DELETE", ""],
      ["POST", "/activate"],
      ["POST", "/pause"],
      ["POST", "/resume"],
    ] as const
  ) {
    const missing = await owner.request(method, `${rulesPath(slug)}/99999${suffix}`, {});
    assertEquals(missing.status, 404, `${method} ${suffix}`);
  }
  const badId = await owner.put(`${rulesPath(slug)}/abc`, {});
  assertEquals(badId.status, 400);
  const resumeDraft = await owner.post(`${rulesPath(slug)}/${r.body.id}/resume`);
  assertEquals(resumeDraft.status, 409);
  const unknownTenant = await owner.get(rulesPath("no-such-tenant"));
  assertEquals(unknownTenant.status, 404);
  const settings = await owner.put(`/api/tenants/${slug}/ai-transform/settings`, {
    maxCharsPerField: 9000,
  });
  assertEquals(settings.status, 400, "characters per field is configurable downward only");
});

// ---- security ----

dbTest("role matrix: viewer reads, editor writes rules, admin sets limits", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const m = await roleMatrix(app, owner, slug);
  const rule = await owner.post(rulesPath(slug), tone);
  const id = rule.body.id;
  for (const c of [m.viewer, m.editor, m.admin, m.owner]) {
    for (const p of ["rules", "runs", "usage", "profiles", "settings"]) {
      const r = await c.get(`/api/tenants/${slug}/ai-transform/${p}`);
      assertEquals(r.status, 200, `${p} ${r.text}`);
    }
  }
  const writes = [
    ["POST", rulesPath(slug), tone],
    ["PUT", `${rulesPath(slug)}/${id}`, { tone: "casual" }],
    ["POST", `${rulesPath(slug)}/${id}/activate`, undefined],
    ["POST", `${rulesPath(slug)}/${id}/pause`, undefined],
    ["DELETE", `${rulesPath(slug)}/${id}`, undefined],
    ["POST", `/api/tenants/${slug}/ai-transform/preview`, { ruleId: id, sample: {} }],
    ["POST", `/api/tenants/${slug}/ai-transform/regenerate`, { profile: "x", apiPath: "/x" }],
  ] as const;
  for (const [method, path, body] of writes) {
    const r = await m.viewer.request(method, path, body);
    assertEquals(r.status, 403, `viewer ${method} ${path}`);
  }
  const editorEdit = await m.editor.put(`${rulesPath(slug)}/${id}`, { tone: "casual" });
  assertEquals(editorEdit.status, 200);
  const editorAct = await m.editor.post(`${rulesPath(slug)}/${id}/activate`);
  assertEquals(editorAct.status, 200);
  const editorSettings = await m.editor.put(`/api/tenants/${slug}/ai-transform/settings`, {
    dailyTokenCap: 5,
  });
  assertEquals(editorSettings.status, 403);
  const adminSettings = await m.admin.put(`/api/tenants/${slug}/ai-transform/settings`, {
    dailyTokenCap: 5,
  });
  assertEquals(adminSettings.status, 200);
  const editorDelete = await m.editor.delete(`${rulesPath(slug)}/${id}`);
  assertEquals(editorDelete.status, 200);
  const anon = await new (owner.constructor as typeof import("./harness.ts").Client)(app).get(
    rulesPath(slug),
  );
  assertEquals(anon.status, 401);
});

dbTest("tenant isolation: outsiders get 404; rule ids of another tenant are 404", async (app) => {
  const alice = await signUp(app);
  const bob = await signUp(app);
  const a = await createTenant(alice);
  const b = await createTenant(bob);
  const aRule = await activeRule(alice, a, { ...tone, profile: "p" });
  for (const p of ["rules", "runs", "usage", "profiles", "settings"]) {
    const r = await bob.get(`/api/tenants/${a}/ai-transform/${p}`);
    assertEquals(r.status, 404, p);
  }
  const post = await bob.post(rulesPath(a), tone);
  assertEquals(post.status, 404);
  // Bob uses his own tenant's path with Alice's rule id.
  for (
    const [method, suffix] of [["PUT", ""], ["DELETE", ""], ["POST", "/activate"]] as const
  ) {
    const r = await bob.request(method, `${rulesPath(b)}/${aRule.id}${suffix}`, { tone: "x" });
    assertEquals(r.status, 404, `${method} ${suffix}`);
  }
  const preview = await bob.post(`/api/tenants/${b}/ai-transform/preview`, {
    ruleId: aRule.id,
    sample: { items: [{ title: "x" }] },
  });
  assertEquals(preview.status, 404);
  assertEquals((await bob.get(`/api/tenants/${b}/ai-transform/profiles`)).body.profiles, []);
  const still = await alice.get(rulesPath(a));
  assertEquals(still.body.rules[0].status, "active");
  assertEquals(still.body.rules[0].tone, "formal");
});
