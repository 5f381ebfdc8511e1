/**
 * Security cases of AI transforms kept together: rules, preview, regenerate and runs refuse
 * bad input with a 400 naming the field, another tenant's rules and runs stay out of reach
 * (404, never data), preview fails closed at the token cap (429), and execute takes only
 * its X-AI-Transform-Key (401), which it never echoes.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, signUp } from "./harness.ts";
import { activeRule, aiTest, rulesPath } from "./ai_helpers.ts";
import { memberWithRole } from "./roles.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

const KEY = "ai-transform-key-0123456789";
const rule = {
  presetId: "rewrite_tone",
  fieldSelector: "items[*].title",
  tone: "formal",
  profile: "p1",
};
const sample = { items: [{ title: "hello" }] };
const ai = (slug: string) => `/api/tenants/${slug}/ai-transform`;

aiTest("ai transforms: bad input is 400 naming the field", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const created = await activeRule(owner, slug, rule);
  const bad = (method: string, path: string, body: unknown, field: string) => ({
    method,
    path: `${ai(slug)}${path}`,
    body,
    status: 400,
    field,
  });
  await expectRefusals(owner, [
    bad("POST", "/rules", { ...rule, fieldSelector: "items[*].ti\u0000tle" }, "fieldSelector"),
    bad("POST", "/rules", { ...rule, tone: over(100) }, "tone"),
    bad("POST", "/rules", { ...rule, tone: 5 }, "tone"),
    bad("POST", "/rules", { ...rule, routePattern: "/" + over(512) }, "routePattern"),
    bad("POST", "/rules", { ...rule, presetId: "custom\u0000" }, "presetId"),
    bad("PUT", `/rules/${created.id}`, { tone: "a\u0000" }, "tone"),
    bad("PUT", `/rules/${created.id}`, { routePattern: ["/"] }, "routePattern"),
    bad("POST", "/preview", { ruleId: "1", sample }, "ruleId"),
    bad("POST", "/preview", { ruleId: 1.5, sample }, "ruleId"),
    bad(
      "POST",
      "/preview",
      { ruleId: created.id, sample: { items: [{ title: "a\u0000" }] } },
      "sample.items.0.title",
    ),
    bad("POST", "/regenerate", { profile: "p1", apiPath: "/a\u0000" }, "apiPath"),
    bad("POST", "/regenerate", { profile: "p1", apiPath: "/" + over(2048) }, "apiPath"),
    bad("POST", "/regenerate", { profile: 1, apiPath: "/posts" }, "profile"),
    bad("GET", "/runs?limit=201", undefined, "limit"),
    bad("GET", "/runs?limit=abc", undefined, "limit"),
    bad("GET", "/runs?offset=-1", undefined, "offset"),
    bad("GET", "/runs?mode=live", undefined, "mode"),
    bad("PUT", "/settings", { maxCharsPerField: 8001 }, "maxCharsPerField"),
    bad("PUT", "/settings", { monthlyTokenCap: "10" }, "monthlyTokenCap"),
    { method: "PUT", path: `${ai(slug)}/rules/abc`, body: { tone: "x" }, status: 400 },
    { method: "DELETE", path: `${ai(slug)}/rules/99999999999999999999`, status: 400 },
    { method: "POST", path: `${ai(slug)}/rules/2147483648/activate`, status: 400 },
  ]);
  const still = await owner.get(rulesPath(slug));
  assertEquals(still.body.rules.length, 1);
  assertEquals(still.body.rules[0].tone, "formal", "no refused change was applied");
});

aiTest(
  "ai transforms: another tenant's rules, profiles and runs are 404 or absent",
  async (app) => {
    const alice = await signUp(app);
    const bob = await signUp(app);
    const a = await createTenant(alice);
    const b = await createTenant(bob);
    const aRule = await activeRule(alice, a, rule);
    assertEquals((await alice.post(`${ai(a)}/preview`, { ruleId: aRule.id, sample })).status, 200);
    await expectRefusals(bob, [
      { method: "POST", path: `${rulesPath(b)}/${aRule.id}/pause`, status: 404 },
      {
        method: "POST",
        path: `${ai(b)}/regenerate`,
        body: { profile: "p1", apiPath: "/posts" },
        status: 404,
      },
      { method: "GET", path: `${ai(a)}/runs`, status: 404 },
      { method: "PUT", path: `${ai(a)}/settings`, body: { maxCharsPerField: 10 }, status: 404 },
    ]);
    const runs = await bob.get(`${ai(b)}/runs`);
    assertEquals(runs.body.total, 0, "Alice's preview run is not Bob's");
    assertEquals((await bob.get(rulesPath(b))).body.rules, []);
  },
);

aiTest("ai transforms: 401 anonymous, 403 viewer writes and editor settings", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const r = await activeRule(owner, slug, rule);
  const viewer = await memberWithRole(app, owner, slug, "viewer");
  const editor = await memberWithRole(app, owner, slug, "editor");
  await expectRefusals(new Client(app), [
    { method: "GET", path: rulesPath(slug), status: 401 },
    { method: "POST", path: `${ai(slug)}/preview`, body: { ruleId: r.id, sample }, status: 401 },
  ]);
  await expectRefusals(viewer, [
    { method: "POST", path: rulesPath(slug), body: rule, status: 403 },
    { method: "PUT", path: `${rulesPath(slug)}/${r.id}`, body: { tone: "casual" }, status: 403 },
    { method: "DELETE", path: `${rulesPath(slug)}/${r.id}`, status: 403 },
    { method: "POST", path: `${ai(slug)}/preview`, body: { ruleId: r.id, sample }, status: 403 },
    {
      method: "POST",
      path: `${ai(slug)}/regenerate`,
      body: { profile: "p1", apiPath: "/x" },
      status: 403,
    },
  ]);
  await expectRefusals(editor, [
    { method: "PUT", path: `${ai(slug)}/settings`, body: { monthlyTokenCap: null }, status: 403 },
  ]);
});

aiTest("preview fails closed at the token cap: 429", async (app, fake) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const r = await activeRule(owner, slug, rule);
  assertEquals((await owner.put(`${ai(slug)}/settings`, { dailyTokenCap: 1 })).status, 200);
  assertEquals((await owner.post(`${ai(slug)}/preview`, { ruleId: r.id, sample })).status, 200);
  await expectRefusals(owner, [
    { method: "POST", path: `${ai(slug)}/preview`, body: { ruleId: r.id, sample }, status: 429 },
  ]);
  assertEquals(fake.calls.length, 1, "the capped preview never reached the model");
});

aiTest("execute: only the exact X-AI-Transform-Key, never echoed; bad input 400", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  await activeRule(owner, slug, rule);
  const body = { tenant: slug, profile: "p1", url: "/~api/posts", payload: sample };
  const exec = (
    headers: Record<string, string>,
    status: number,
    b: unknown = body,
    field?: string,
  ) => ({
    method: "POST",
    path: "/api/ai-transform/execute",
    body: b,
    headers,
    status,
    field,
  });
  const key = { "x-ai-transform-key": KEY };
  await expectRefusals(new Client(app), [
    exec({}, 401),
    exec({ "x-ai-transform-key": KEY.slice(0, -1) }, 401),
    exec({ "x-ai-transform-key": KEY + "x" }, 401),
    exec({ authorization: `Bearer ${KEY}` }, 401),
    exec(key, 400, { ...body, tenant: `${slug}\u0000` }, "tenant"),
    exec(key, 400, { ...body, url: "/" + over(4096) }, "url"),
    exec(key, 400, { ...body, profile: ["p1"] }, "profile"),
    exec(key, 400, { tenant: slug, profile: "p1", url: "/x" }, "payload"),
    exec(key, 404, { ...body, tenant: "no-such-tenant" }),
  ]);
  await expectRefusals(owner, [exec({}, 401)]);
  const ok = await new Client(app).post("/api/ai-transform/execute", body, key);
  assertEquals(ok.status, 200, ok.text);
  assert(!ok.text.includes(KEY) && ![...ok.headers.values()].some((v) => v.includes(KEY)));
  assert(!echoes(ok.body, KEY));
}, { env: { AI_TRANSFORM_KEY: KEY } });
