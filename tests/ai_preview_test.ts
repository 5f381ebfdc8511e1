// Preview (fail-closed), runs listing and usage, through the real openai SDK and a fake server.
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { createTenant, signUp } from "./harness.ts";
import { activeRule, aiTest, rulesPath, runs } from "./ai_helpers.ts";
import { roleMatrix } from "./roles.ts";

const previewPath = (slug: string) => `/api/tenants/${slug}/ai-transform/preview`;
const inline = { presetId: "translate", targetLanguage: "fr", fieldSelector: "items[*].title" };
const sample = { items: [{ title: "hello", id: 1 }, { title: "bye", id: 2 }] };

// ---- happy ----

aiTest(
  "preview transforms sample content with an inline rule: { original, transformed }",
  async (app, fake) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const r = await owner.post(previewPath(slug), { ...inline, sample });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.body.original, sample);
    assertEquals(r.body.transformed, {
      items: [{ title: "[T] hello", id: 1 }, { title: "[T] bye", id: 2 }],
    });
    assertEquals(r.body.status, "applied");
    assertEquals(r.body.usage.totalTokens, 150);
    assertStringIncludes(fake.calls[0].system, "language with code fr");
    const log = await runs(owner, slug, "?mode=preview");
    assertEquals(log.total, 1);
    assertEquals(log.runs[0].mode, "preview");
    assertEquals(log.runs[0].status, "applied");
    assertEquals((await runs(owner, slug, "?mode=runtime")).total, 0);
  },
);

aiTest("preview evaluates stored draft and active rules by id", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const draft = await owner.post(rulesPath(slug), {
    presetId: "custom",
    customInstruction: "Uppercase it",
    constraints: "Keep punctuation",
    example: { input: "hi", output: "HI" },
    fieldSelector: "items[*].title",
  });
  const r = await owner.post(previewPath(slug), { ruleId: draft.body.id, sample });
  assertEquals(r.status, 200, r.text);
  assertEquals(r.body.transformed.items[0].title, "[T] hello");
  assertStringIncludes(fake.calls[0].system, "Instruction: Uppercase it");
  assertStringIncludes(fake.calls[0].system, "Constraints: Keep punctuation");
  assertStringIncludes(fake.calls[0].system, '"hi" becomes "HI"');
  const active = await activeRule(owner, slug, { ...inline, profile: "fr" });
  const r2 = await owner.post(previewPath(slug), { ruleId: active.id, sample });
  assertEquals(r2.status, 200);
});

aiTest("preview reports a partial result with per-field errors", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  fake.program(() => ({ items: ["bonjour", ""] }));
  const r = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(r.status, 200);
  assertEquals(r.body.status, "partial");
  assertEquals(r.body.transformed.items[1].title, "bye");
  assertEquals(r.body.fieldErrors, [{
    ruleId: null,
    path: "items[1].title",
    error: "empty_output",
  }]);
});

aiTest("runs: limit, offset, mode, status and profile filters with total", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (let i = 0; i < 3; i++) {
    await owner.post(previewPath(slug), { ...inline, sample: { items: [{ title: `t${i}` }] } });
  }
  fake.program(() => ({ status: 500 }));
  const failed = await owner.post(previewPath(slug), {
    ...inline,
    sample: { items: [{ title: "z" }] },
  });
  assertEquals(failed.status, 502);
  const all = await runs(owner, slug);
  assertEquals(all.total, 4);
  assertEquals(all.runs.length, 4);
  assertEquals(all.runs[0].status, "error", "newest first");
  const page = await runs(owner, slug, "?limit=2&offset=1");
  assertEquals(page.total, 4);
  assertEquals(
    page.runs.map((r: { id: number }) => r.id),
    all.runs.slice(1, 3).map((r: { id: number }) => r.id),
  );
  assertEquals((await runs(owner, slug, "?status=applied")).total, 3);
  assertEquals((await runs(owner, slug, "?profile=nope")).total, 0);
  const bad = await owner.get(`/api/tenants/${slug}/ai-transform/runs?mode=live`);
  assertEquals(bad.status, 400);
  const badLimit = await owner.get(`/api/tenants/${slug}/ai-transform/runs?limit=0`);
  assertEquals(badLimit.status, 400);
});

// ---- errors ----

aiTest(
  "preview: 400 for more than 5 fields, over-long fields, bad config, paused rule",
  async (app, fake) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const six = { items: Array.from({ length: 6 }, (_, i) => ({ title: `t${i}` })) };
    const tooMany = await owner.post(previewPath(slug), { ...inline, sample: six });
    assertEquals(tooMany.status, 400);
    assertStringIncludes(tooMany.body.error.message, "preview allows 5");
    const five = await owner.post(previewPath(slug), {
      ...inline,
      sample: { items: six.items.slice(0, 5) },
    });
    assertEquals(five.status, 200);
    const long = await owner.post(previewPath(slug), {
      ...inline,
      sample: { items: [{ title: "x".repeat(8001) }] },
    });
    assertEquals(long.status, 400);
    assertStringIncludes(long.body.error.message, "exceeds 8000 characters");
    const noSample = await owner.post(previewPath(slug), inline);
    assertEquals(noSample.status, 400);
    assertEquals(noSample.body.error.details.fields[0].path, "sample");
    const noTone = await owner.post(previewPath(slug), {
      presetId: "rewrite_tone",
      fieldSelector: "a",
      sample: {},
    });
    assertEquals(noTone.status, 400);
    const badSel = await owner.post(previewPath(slug), {
      ...inline,
      fieldSelector: "a..b",
      sample: {},
    });
    assertEquals(badSel.status, 400);
    assertEquals(badSel.body.error.message, 'Invalid fieldSelector: unexpected "." at 2');
    const rule = await owner.post(rulesPath(slug), inline);
    await owner.post(`${rulesPath(slug)}/${rule.body.id}/pause`);
    const paused = await owner.post(previewPath(slug), { ruleId: rule.body.id, sample });
    assertEquals(paused.status, 400);
    const missing = await owner.post(previewPath(slug), { ruleId: 99999, sample });
    assertEquals(missing.status, 404);
    assertEquals(fake.calls.length, 1, "only the 5-field preview reached the model");
  },
);

aiTest("preview: 429 when a token cap is reached (fail-closed)", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  await owner.put(`/api/tenants/${slug}/ai-transform/settings`, { monthlyTokenCap: 150 });
  const first = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(first.status, 200);
  const capped = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(capped.status, 429);
  assertEquals(capped.body.error.code, "token_limit_exceeded");
  assertEquals(capped.body.error.details.cap, "monthly");
  assertEquals(fake.calls.length, 1);
  const usage = await owner.get(`/api/tenants/${slug}/ai-transform/usage`);
  assertEquals(usage.body.monthly.totalTokens, 150);
  assertEquals(usage.body.limits.monthlyRemaining, 0);
});

aiTest("preview: model failures are errors, not silent echoes (502)", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  fake.program(() => ({ status: 429 }));
  const limited = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(limited.status, 502);
  assertEquals(limited.body.error.code, "model_rate_limited");
  fake.program(() => ({ content: "{" }));
  const malformed = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(malformed.status, 502);
  assertEquals(malformed.body.error.code, "malformed_output");
});

aiTest("preview without a configured model answers a clear 503", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const r = await owner.post(previewPath(slug), { ...inline, sample });
  assertEquals(r.status, 503);
  assertEquals(r.body.error.code, "ai_not_configured");
  assertStringIncludes(r.body.error.message, "OPENAI_API_KEY");
}, { noModel: true });

// ---- security ----

aiTest(
  "preview and usage: editor+ previews, viewer reads usage, outsiders get 404",
  async (app, fake) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const m = await roleMatrix(app, owner, slug);
    assertEquals((await m.viewer.post(previewPath(slug), { ...inline, sample })).status, 403);
    assertEquals((await m.editor.post(previewPath(slug), { ...inline, sample })).status, 200);
    assertEquals((await m.outsider.post(previewPath(slug), { ...inline, sample })).status, 404);
    assertEquals((await m.viewer.get(`/api/tenants/${slug}/ai-transform/usage`)).status, 200);
    assertEquals((await m.outsider.get(`/api/tenants/${slug}/ai-transform/usage`)).status, 404);
    // Another tenant's usage and runs stay separate.
    const other = await createTenant(m.outsider);
    const theirs = await m.outsider.get(`/api/tenants/${other}/ai-transform/usage`);
    assertEquals(theirs.body.monthly.totalTokens, 0);
    assertEquals((await runs(m.outsider, other)).total, 0);
    assert(fake.calls.length === 1);
  },
);
