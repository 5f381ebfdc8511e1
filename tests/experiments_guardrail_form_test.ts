// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
/**
 * Guardrails are set in the dashboard: the experiments page offers them on create and in
 * each experiment's editor; the form bridge posts them to the API (rates as fractions),
 * refuses a bad one naming the field, and removes them.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { type Client, createTenant, dbTest, signUp } from "./harness.ts";

function postForm(c: Client, fields: Record<string, string>) {
  return c.request("POST", "/forms", new URLSearchParams(fields).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  });
}

dbTest("guardrails are created, edited, refused and removed from the page", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const api = `/api/tenants/${slug}/ai-experiments`;
  const back = `/dashboard/${slug}/experiments`;
  const before = (await owner.get(back)).text;
  assertStringIncludes(before, 'name="guardrails.maxErrorRate:number"');

  const made = await postForm(owner, {
    _api: api,
    _method: "POST",
    _back: back,
    name: "Tone",
    routePattern: "/posts",
    "variants.0.key": "control",
    "variants.1.key": "casual",
    "variants.1.transformProfile": "casual",
    "guardrails.maxErrorRate:number": "0.05",
    "guardrails.minVisitors:number": "",
  });
  assertEquals(made.body.outcome.ok, true, made.text);
  const [e] = (await owner.get(api)).body.experiments;
  assertEquals(e.guardrails, { maxErrorRate: 0.05 });

  const page = (await owner.get(back)).text;
  assertStringIncludes(page, "Save guardrails");
  assertStringIncludes(page, "5xx ≤ 5.0 %; against control by 1.0 %, from 100 visitors a variant");
  const edit = {
    _api: `${api}/${e.id}`,
    _method: "PATCH",
    _back: back,
    "guardrails.maxErrorRate:number": "0.1",
    "guardrails.minConversionRate:number": "0.02",
    "guardrails.goal": "signup",
    "guardrails.margin:number": "0.02",
    "guardrails.minVisitors:number": "500",
  };
  const saved = await postForm(owner, edit);
  assertEquals(saved.body.outcome.ok, true, saved.text);
  assertEquals((await owner.get(`${api}/${e.id}`)).body.guardrails, {
    maxErrorRate: 0.1,
    minConversionRate: 0.02,
    goal: "signup",
    margin: 0.02,
    minVisitors: 500,
  });
  assertStringIncludes((await owner.get(back)).text, 'value="500"');

  const bad = await postForm(owner, { ...edit, "guardrails.minVisitors:number": "5" });
  assertEquals(bad.body.status, 400, bad.text);
  assertStringIncludes(bad.body.outcome.message, "guardrails.minVisitors");

  const removed = await postForm(owner, {
    _api: `${api}/${e.id}`,
    _method: "PATCH",
    _back: back,
    "guardrails:null": "",
  });
  assertEquals(removed.body.outcome.ok, true, removed.text);
  const after: any = (await owner.get(`${api}/${e.id}`)).body;
  assertEquals(after.guardrails, null);
  assert(!(await owner.get(back)).text.includes("Remove guardrails"));
});
