// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
// Stored AI outputs: provenance, listing with cursor paging, review mode,
// approve / reject / edit / pin through the real edge, the fake model and PGlite/PostgreSQL.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, signUp } from "./harness.ts";
import { activeRule, aiTest, rulesPath } from "./ai_helpers.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { readSnapshot } from "../lib/kv/snapshot.ts";
import { AiEngine, aiEngineFor } from "../lib/ai/engine.ts";
import { sha256Hex } from "../lib/crypto/mod.ts";
import { systemMessage } from "../lib/ai/presets.ts";

let titles = ["hello", "world"];

async function setup(app: Parameters<Parameters<typeof aiTest>[1]>[0], reviewMode?: string) {
  titles = ["hello", "world"];
  const up = startUpstream();
  up.route("/posts", () => Response.json({ items: titles.map((title) => ({ title })) }));
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: up.url, apiAuthMode: "bearer", token: "t" });
  const rule = await activeRule(owner, slug, {
    presetId: "rewrite_tone",
    tone: "formal",
    fieldSelector: "items[*].title",
    profile: "formal",
    ...(reviewMode ? { reviewMode } : {}),
  });
  const visitor = new Client(app);
  const host = `http://${slug}.localhost:8000`;
  const outputs = `/api/tenants/${slug}/ai-transform/outputs`;
  const get = async () => {
    const r = await visitor.get(`${host}/~api/posts?transform=formal`);
    assertEquals(r.status, 200, r.text);
    return r.body.items.map((i: any) => i.title);
  };
  const list = async (q = "") => {
    const r = await owner.get(`${outputs}${q}`);
    assertEquals(r.status, 200, r.text);
    return r.body;
  };
  return { up, owner, slug, rule, visitor, get, list, outputs };
}

// ---- provenance and listing ----

aiTest("every served output is stored with its provenance and listed", async (app, fake) => {
  const t = await setup(app);
  try {
    assertEquals(await t.get(), ["[T] hello", "[T] world"]);
    const page = await t.list();
    assertEquals(page.nextCursor, null);
    assertEquals(page.outputs.length, 2);
    const o = page.outputs.find((x: any) => x.field === "items[0].title");
    const snap = await readSnapshot(app.services.kv, t.slug);
    const prompt = systemMessage(snap!.ai.rules[0], snap!.ai.limits.maxCharsPerField);
    assertEquals(
      {
        ruleId: o.ruleId,
        profile: o.profile,
        path: o.path,
        source: o.source,
        output: o.output,
        status: o.status,
        model: o.model,
        presetVersion: o.presetVersion,
        promptHash: o.promptHash,
        sourceHash: o.sourceHash,
        tokens: o.tokens,
      },
      {
        ruleId: t.rule.id,
        profile: "formal",
        path: "/posts",
        source: "hello",
        output: "[T] hello",
        status: "auto",
        model: "fake-model",
        presetVersion: 1,
        promptHash: await sha256Hex(prompt),
        sourceHash: await sha256Hex("hello"),
        tokens: 75, // the call's 150 tokens shared by its 2 values
      },
    );
    assert(fake.calls[0].system === prompt, "the hash is of the prompt that was sent");
    assert(!Number.isNaN(Date.parse(o.createdAt)));

    // Paging: one per page, then the cursor runs out.
    const p1 = await t.list("?limit=1");
    assertEquals(p1.outputs.length, 1);
    assert(p1.nextCursor);
    const p2 = await t.list(`?limit=1&cursor=${p1.nextCursor}`);
    assertEquals(p2.outputs.length, 1);
    assertEquals(p2.nextCursor, null);
    assert(p1.outputs[0].id > p2.outputs[0].id, "newest first");
    // Filters.
    assertEquals(
      (await t.list(`?ruleId=${t.rule.id}&status=auto&profile=formal`)).outputs.length,
      2,
    );
    assertEquals((await t.list("?status=pending")).outputs.length, 0);
    assertEquals((await t.list("?path=%2Fposts")).outputs.length, 2);
    assertEquals((await t.list("?path=%2Fother")).outputs.length, 0);

    // A source change replaces an unreviewed output, with a new source hash.
    titles = ["hello again", "world"];
    const r = await t.owner.post(`/api/tenants/${t.slug}/ai-transform/regenerate`, {
      profile: "formal",
      apiPath: "/posts",
    });
    assertEquals(r.status, 200, r.text);
    const after = (await t.list()).outputs.find((x: any) => x.field === "items[0].title");
    assertEquals(after.id, o.id, "one row per (rule, path, field)");
    assertEquals(after.source, "hello again");
    assertEquals(after.output, "[T] hello again");
    assertEquals(after.sourceHash, await sha256Hex("hello again"));
    assert(after.version > o.version);
  } finally {
    await t.up.close();
  }
});

// ---- review mode ----

aiTest("review mode serves the source until approval, then the output", async (app, fake) => {
  const t = await setup(app, "review");
  try {
    assertEquals(t.rule.reviewMode, "review");
    assertEquals(await t.get(), ["hello", "world"], "nothing approved yet: the source");
    assertEquals(fake.calls.length, 1, "the candidates were made");
    // The source went out: the headers say so, not "applied".
    const raw = await new Client(app).get(
      `http://${t.slug}.localhost:8000/~api/posts?transform=formal`,
    );
    assertEquals(raw.headers.get("x-ai-transform"), "skipped");
    assertEquals(raw.headers.get("x-ai-transform-skip-reason"), "review-pending");
    const pending = (await t.list("?status=pending")).outputs;
    assertEquals(pending.map((o: any) => o.output).sort(), ["[T] hello", "[T] world"]);
    const counts = await t.owner.get(`${t.outputs}/counts`);
    assertEquals(counts.body.counts.pending, 2);
    assertEquals(counts.body.byRule, [{ ruleId: t.rule.id, counts: counts.body.counts }]);

    // The dashboard: source and output side by side, the queue with counts and bulk approve.
    const aiPage = await t.owner.get(`/dashboard/${t.slug}/ai`);
    assertEquals(aiPage.status, 200);
    assert(/<td>hello<\/td>\s*<td>\[T\] hello<\/td>/.test(aiPage.text), "side by side");
    const queue = await t.owner.get(`/dashboard/${t.slug}/ai-review`);
    assertEquals(queue.status, 200);
    assert(queue.text.includes("pending: <!-- -->2") || queue.text.includes("pending: 2"));
    assert(queue.text.includes("Approve all 2 shown"), "bulk approve offered");
    assertMatch(queue.text, /<h2>Pending(<!-- -->)? outputs/, "the heading starts with a capital");

    const hello = pending.find((o: any) => o.source === "hello");
    const ok = await t.owner.post(`${t.outputs}/${hello.id}/approve`, { version: hello.version });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.body.status, "approved");
    assertEquals(await t.get(), ["[T] hello", "world"], "approved one served at once");

    // Bulk approve: a stale version is skipped, not approved.
    const world = pending.find((o: any) => o.source === "world");
    const bulk = await t.owner.post(`${t.outputs}/approve`, {
      outputs: [{ id: world.id, version: world.version }, { id: hello.id, version: hello.version }],
    });
    assertEquals(bulk.status, 200, bulk.text);
    assertEquals(bulk.body, { approved: [world.id], skipped: [hello.id] });
    assertEquals(await t.get(), ["[T] hello", "[T] world"]);
    assertEquals(fake.calls.length, 1, "approved outputs cost no model call");

    // Reject: the source again, and not regenerated while the source is unchanged.
    const rej = await t.owner.post(`${t.outputs}/${world.id}/reject`);
    assertEquals(rej.status, 200, rej.text);
    assertEquals(await t.get(), ["[T] hello", "world"]);
    await aiEngineFor(app.services).flush();
    assertEquals((await t.list("?status=rejected")).outputs.length, 1);
    const audit = await t.owner.get(`/api/tenants/${t.slug}/audit-events`);
    const actions = audit.body.events.map((e: any) => e.action);
    for (const a of ["output_approved", "outputs_approved", "output_rejected"]) {
      assert(actions.includes(`ai_transform.${a}`), a);
    }
  } finally {
    await t.up.close();
  }
});

aiTest(
  "an edit is served, pinned, and survives a regenerate and a model change",
  async (app, fake) => {
    const t = await setup(app);
    try {
      await t.get();
      const o = (await t.list()).outputs.find((x: any) => x.source === "hello");
      const ed = await t.owner.put(`${t.outputs}/${o.id}`, {
        output: "Greetings",
        version: o.version,
      });
      assertEquals(ed.status, 200, ed.text);
      assertEquals([ed.body.status, ed.body.pinned, ed.body.output], ["edited", true, "Greetings"]);
      assertEquals(await t.get(), ["Greetings", "[T] world"]);

      fake.program(({ items }) => ({ items: items.map((s) => `[NEW] ${s}`) }));
      const regen = await t.owner.post(`/api/tenants/${t.slug}/ai-transform/regenerate`, {
        profile: "formal",
        apiPath: "/posts",
      });
      assertEquals(regen.status, 200, regen.text);
      assertEquals(regen.body.body.items[0].title, "Greetings");
      assertEquals(await t.get(), ["Greetings", "[T] world"]);

      // Another model on the same data: the unpinned field changes, the edit does not.
      const s = app.services;
      const other = new AiEngine({
        ...s,
        config: { ...s.config, openai: { ...s.config.openai, model: "fake-model-2" } },
      });
      const snap = await readSnapshot(s.kv, t.slug);
      const r = await other.runtime({
        tenantId: snap!.tenantId,
        ai: snap!.ai,
        profile: "formal",
        apiPath: "/posts",
        body: JSON.stringify({ items: [{ title: "hello" }, { title: "world" }] }),
      });
      assertEquals(JSON.parse(r.body).items.map((i: any) => i.title), ["Greetings", "[NEW] world"]);
      await other.flush();
      const rows = (await t.list()).outputs;
      const edited = rows.find((x: any) => x.id === o.id);
      assertEquals([edited.output, edited.model, edited.status], [
        "Greetings",
        "fake-model",
        "edited",
      ]);
      assertEquals(rows.find((x: any) => x.source === "world").model, "fake-model-2");

      // A source change keeps the pinned text and flags it for review.
      titles = ["hello, changed", "world"];
      const again = await t.owner.post(`/api/tenants/${t.slug}/ai-transform/regenerate`, {
        profile: "formal",
        apiPath: "/posts",
      });
      assertEquals(again.body.body.items[0].title, "Greetings");
      await aiEngineFor(s).flush();
      const moved = (await t.list()).outputs.find((x: any) => x.id === o.id);
      assertEquals([moved.status, moved.output, moved.source], [
        "source_changed",
        "Greetings",
        "hello, changed",
      ]);
    } finally {
      await t.up.close();
    }
  },
);

// ---- bad input ----

aiTest("another tenant's output is a 404, a stale version a 409, bad bodies 400", async (app) => {
  const t = await setup(app);
  try {
    await t.get();
    const o = (await t.list()).outputs[0];
    const stranger = await signUp(app);
    const theirs = await createTenant(stranger, { apiOrigin: "https://example.com" });
    const base = `/api/tenants/${theirs}/ai-transform/outputs`;
    for (const a of ["approve", "reject", "pin"]) {
      assertEquals((await stranger.post(`${base}/${o.id}/${a}`)).status, 404, a);
    }
    assertEquals((await stranger.put(`${base}/${o.id}`, { output: "x" })).status, 404);
    assertEquals((await stranger.get(base)).body.outputs, [], "no other tenant's rows");
    const bulk = await stranger.post(`${base}/approve`, {
      outputs: [{ id: o.id, version: o.version }],
    });
    assertEquals(bulk.body, { approved: [], skipped: [o.id] });

    const stale = await t.owner.post(`${t.outputs}/${o.id}/approve`, { version: o.version + 5 });
    assertEquals(stale.status, 409, stale.text);
    assertEquals(stale.body.error.code, "conflict");
    const cases: [string, unknown, string][] = [
      [`${t.outputs}/${o.id}`, { output: "" }, "output"],
      [`${t.outputs}/${o.id}`, { output: "x".repeat(8001) }, "output"],
      [`${t.outputs}/${o.id}`, { output: "x", version: 0 }, "version"],
    ];
    for (const [path, body, field] of cases) {
      const r = await t.owner.put(path, body);
      assertEquals(r.status, 400, r.text);
      assert(r.body.error.message.includes(field), r.text);
    }
    const q = await t.owner.get(`${t.outputs}?cursor=abc`);
    assertEquals(q.status, 400);
    assert(q.body.error.message.includes("cursor"));
    const st = await t.owner.get(`${t.outputs}?status=nope`);
    assertEquals(st.status, 400);
    const mode = await t.owner.put(`${rulesPath(t.slug)}/${t.rule.id}`, { reviewMode: "later" });
    assertEquals(mode.status, 400);
    assert(mode.body.error.message.includes("reviewMode"));
  } finally {
    await t.up.close();
  }
});
