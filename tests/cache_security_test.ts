/**
 * Security cases of cache control and both cache webhooks kept together: the publish
 * webhook's query secret (401/403/404), the cache-refresh receiver's path secret (404
 * for every failure), secrets never listed, role refusals, another tenant's webhook
 * ids 404, bad input 400 naming the field, and the constant-time comparison.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";
import { sha256Hex, timingSafeEqual } from "../lib/crypto/mod.ts";

async function setup(app: Parameters<typeof signUp>[0]) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { owner, slug, base: `/api/tenants/${slug}` };
}

dbTest("publish webhook: 404 unknown, 403 unconfigured, 401 for any wrong secret", async (app) => {
  const a = await setup(app);
  const b = await setup(app);
  const anon = new Client(app);
  const hook = (base: string, q = "") => ({ method: "POST", path: `${base}/webhook${q}` });
  await expectRefusals(anon, [
    { ...hook("/api/tenants/no-such-tenant", "?secret=x"), status: 404 },
    { ...hook(a.base, "?secret=x"), status: 403 },
  ]);
  const secretA: string = (await a.owner.post(`${a.base}/webhook-secret`)).body.secret;
  const secretB: string = (await b.owner.post(`${b.base}/webhook-secret`)).body.secret;
  await expectRefusals(anon, [
    { ...hook(a.base), status: 401 },
    { ...hook(a.base, "?secret="), status: 401 },
    { ...hook(a.base, `?secret=${secretA.slice(0, -1)}`), status: 401 },
    { ...hook(a.base, `?secret=${secretA}%00`), status: 401 },
    { ...hook(a.base, `?secret=${secretA}${over(300)}`), status: 401 },
    { ...hook(a.base, `?secret=${secretB}`), status: 401 },
    { ...hook(a.base, `?secret=${await sha256Hex(secretA)}`), status: 401 },
  ]);
  const rotated = await a.owner.put(`${a.base}/webhook-secret`);
  assertEquals(rotated.status, 200);
  await expectRefusals(anon, [{ ...hook(a.base, `?secret=${secretA}`), status: 401 }]);
  const ok = await anon.post(`${a.base}/webhook?secret=${encodeURIComponent(rotated.body.secret)}`);
  assertEquals(ok.status, 200);
  assert(!echoes(ok.body, rotated.body.secret), "the receiver does not echo the secret");
});

dbTest("cache control: 401 anonymous, 403 below the role, 404 another tenant", async (app) => {
  const { owner, slug, base } = await setup(app);
  const other = await setup(app);
  const viewer = await memberWithRole(app, owner, slug, "viewer");
  const editor = await memberWithRole(app, owner, slug, "editor");
  const hooks = `${base}/cache-refresh-webhooks`;
  const created = await owner.post(hooks, { provider: "generic" });
  assertEquals(created.status, 201);
  const id = created.body.webhook.id;
  await expectRefusals(new Client(app), [
    { method: "POST", path: `${base}/refresh-cache`, body: { type: "all" }, status: 401 },
    { method: "POST", path: `${base}/webhook-secret`, status: 401 },
    { method: "GET", path: hooks, status: 401 },
  ]);
  await expectRefusals(viewer, [
    { method: "POST", path: `${base}/refresh-cache`, body: { type: "all" }, status: 403 },
    { method: "POST", path: `${base}/webhook-secret`, status: 403 },
    { method: "GET", path: hooks, status: 403 },
    { method: "GET", path: `${hooks}/${id}/events`, status: 403 },
  ]);
  await expectRefusals(editor, [
    { method: "PUT", path: `${base}/webhook-secret`, status: 403 },
    { method: "POST", path: hooks, body: { provider: "generic" }, status: 403 },
    { method: "POST", path: `${hooks}/${id}/regenerate`, status: 403 },
    { method: "DELETE", path: `${hooks}/${id}`, status: 403 },
  ]);
  const otherHooks = `${other.base}/cache-refresh-webhooks`;
  await expectRefusals(other.owner, [
    { method: "GET", path: `${otherHooks}/${id}/events`, status: 404 },
    { method: "POST", path: `${otherHooks}/${id}/regenerate`, status: 404 },
    { method: "DELETE", path: `${otherHooks}/${id}`, status: 404 },
    { method: "GET", path: hooks, status: 404 },
  ]);
  assertEquals((await other.owner.get(otherHooks)).body.webhooks, []);
  const live = await new Client(app).post(new URL(created.body.url).pathname, {});
  assertEquals(live.status, 200, "the webhook survived every refused call");
});

dbTest("cache-refresh secrets: listed never, hash never, wrong forms all 404", async (app) => {
  const { owner, base } = await setup(app);
  const hooks = `${base}/cache-refresh-webhooks`;
  const created = await owner.post(hooks, { provider: "generic" });
  const { secret } = created.body;
  const id = created.body.webhook.id;
  const hash = await sha256Hex(secret);
  assertEquals(
    (await new Client(app).post(`/api/webhooks/cache-refresh/${id}/${secret}`, {})).status,
    200,
  );
  for (const path of [hooks, `${hooks}/${id}/events`]) {
    const r = await owner.get(path);
    assertEquals(r.status, 200, path);
    assert(!echoes(r.body, secret) && !echoes(r.body, hash), `${path}: ${r.text}`);
  }
  const recv = (s: string, status = 404) => ({
    method: "POST",
    path: `/api/webhooks/cache-refresh/${id}/${s}`,
    body: {},
    status,
  });
  // A secret no issued one can be (NUL, over the path-parameter cap) is refused before any
  // lookup as a 400 naming the parameter; a well-formed wrong one is 404.
  await expectRefusals(new Client(app), [
    recv(`${secret}%00`, 400),
    recv(`${secret}${over(2000)}`, 400),
    recv(encodeURIComponent(`${secret}\u0000`), 400),
    recv(secret.toUpperCase()),
  ]);
});

dbTest("cache control: bad input is 400 naming the field", async (app) => {
  const { owner, base } = await setup(app);
  const hooks = `${base}/cache-refresh-webhooks`;
  await expectRefusals(owner, [
    {
      method: "POST",
      path: `${base}/refresh-cache`,
      body: { type: "all\u0000" },
      status: 400,
      field: "type",
    },
    {
      method: "POST",
      path: `${base}/refresh-cache`,
      body: { type: 1 },
      status: 400,
      field: "type",
    },
    {
      method: "POST",
      path: `${base}/refresh-cache`,
      body: { type: over(1000) },
      status: 400,
      field: "type",
    },
    {
      method: "POST",
      path: hooks,
      body: { provider: "generic\u0000" },
      status: 400,
      field: "provider",
    },
    {
      method: "POST",
      path: hooks,
      body: { provider: "generic", refreshAssets: "true" },
      status: 400,
      field: "refreshAssets",
    },
    { method: "GET", path: `${hooks}/abc/events`, status: 400 },
    { method: "POST", path: `${hooks}/99999999999999999999/regenerate`, status: 400 },
    { method: "DELETE", path: `${hooks}/-1`, status: 400 },
  ]);
  assertEquals((await owner.get(hooks)).body.webhooks, [], "nothing was created");
});

Deno.test("secrets compare in constant time: every byte and the length count", () => {
  const s = "crw_" + "a".repeat(60);
  assert(timingSafeEqual(s, s));
  assert(!timingSafeEqual(s, "b" + s.slice(1)), "first byte");
  assert(!timingSafeEqual(s, s.slice(0, -1) + "b"), "last byte");
  assert(!timingSafeEqual(s, s.slice(0, -1)), "a prefix");
  assert(!timingSafeEqual(s, s + "\u0000"), "a NUL suffix");
  assert(!timingSafeEqual("", s));
  for (const file of ["../lib/webhooks/receiver.ts", "../lib/cache/publish_secret.ts"]) {
    const src = Deno.readTextFileSync(new URL(file, import.meta.url));
    assert(/timingSafeEqual\(/.test(src), `${file} compares with timingSafeEqual`);
    assert(!/(secret|Hash|presented|stored)\w*\s*[!=]==/.test(src), `${file}: no === on a secret`);
  }
});
