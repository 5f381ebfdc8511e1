/**
 * Every tenant area page rendered in process: happy (owner, with data), empty (fresh
 * tenant: an empty state with a next step), forbidden (non-member 404, viewer refusals),
 * and the form bridge: real form posts, no-JS redirects with the outcome, JSON for
 * enhanced forms, refused fields named, never raw JSON.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { TENANT_AREAS } from "../components/nav.ts";

type C = Awaited<ReturnType<typeof signUp>>;

/** Posts a dashboard form the way a browser without JavaScript does. */
function postForm(c: Client, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return c.request("POST", "/forms", new URLSearchParams(fields).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    ...headers,
  });
}
const asJson = { accept: "application/json" };

async function invite(owner: C, slug: string, email: string, role: string) {
  const r = await owner.post(`/api/tenants/${slug}/members/invite`, { email, role });
  assertEquals(r.status, 200, r.text);
  return r.body.token as string;
}

dbTest("every tenant area renders for its owner with the sidebar of all areas", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (const area of TENANT_AREAS) {
    const path = `/dashboard/${slug}${area.path ? `/${area.path}` : ""}`;
    const r = await owner.get(path);
    assertEquals(r.status, 200, path);
    assertStringIncludes(r.text, `<h1>${area.label.replace("&", "&amp;")}</h1>`, path);
    assertStringIncludes(r.text, `href="${path}" aria-current="page"`, path);
    for (const other of TENANT_AREAS) {
      assertStringIncludes(r.text, `>${other.label.replace("&", "&amp;")}</a>`);
    }
    assertStringIncludes(r.text, 'id="announce"');
    assertStringIncludes(r.text, 'aria-live="polite"');
    // a filter (role="search") reads with GET; every other form posts
    assert(
      !/<form(?![^>]*method="post")(?![^>]*method="get"[^>]*role="search")/.test(r.text),
      `${path}: every form posts`,
    );
    assert(!/ on[a-z]+="/.test(r.text), `${path}: no inline event handlers`);
    assert(!/ style="/.test(r.text), `${path}: no inline styles`);
    assert(!/<script(?![^>]*src=)/.test(r.text), `${path}: no inline scripts`);
  }
});

dbTest("empty areas say what is missing and the next step", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  /** Area → the list its empty state stands for (`data-empty`). */
  const expect: Record<string, string> = {
    domains: "domains",
    webhooks: "webhooks",
    ai: "rules",
    experiments: "experiments",
    usage: "traffic",
    logs: "logs",
    members: "invites",
  };
  for (const [area, list] of Object.entries(expect)) {
    const r = await owner.get(`/dashboard/${slug}/${area}`);
    assertStringIncludes(r.text, `<div class="empty" data-empty="${list}">`, area);
  }
});

dbTest(
  "a non-member gets 404 on every area; anonymous visitors go to log in and back",
  async (app) => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const slug = await createTenant(owner);
    for (const area of TENANT_AREAS) {
      const path = `/dashboard/${slug}${area.path ? `/${area.path}` : ""}`;
      const r = await other.get(path);
      assertEquals(r.status, 404, path);
      assertStringIncludes(r.text, 'role="alert" data-error-code="not_found"', path);
      const anon = await new Client(app).get(path);
      assertEquals(anon.status, 302);
      assertEquals(anon.headers.get("location"), `/login?next=${encodeURIComponent(path)}`);
    }
  },
);

dbTest(
  "a viewer sees the areas with refusals explained instead of management forms",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const viewer = await signUp(app);
    const token = await invite(owner, slug, viewer.email, "viewer");
    assertEquals((await viewer.post("/api/invites/accept", { token })).status, 200);
    const cache = await viewer.get(`/dashboard/${slug}/cache`);
    assertStringIncludes(cache.text, 'data-refusal="editor"', "purging needs editor");
    assert(!cache.text.includes("refresh-cache"), "no purge form for a viewer");
    const domains = await viewer.get(`/dashboard/${slug}/domains`);
    assertStringIncludes(domains.text, 'data-refusal="admin"', "domains need admin");
    const settings = await viewer.get(`/dashboard/${slug}/settings`);
    assertStringIncludes(settings.text, 'data-refusal="owner"', "deleting needs owner");
    const nav = await viewer.get(`/dashboard/${slug}`);
    assert(!nav.text.includes(`/dashboard/${slug}/webhooks"`), "webhooks need editor");
  },
);

dbTest(
  "form bridge without JavaScript: post, redirect back, the outcome shown once",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const back = `/dashboard/${slug}/domains`;
    const r = await postForm(owner, {
      _api: `/api/tenants/${slug}/domains`,
      _method: "POST",
      _back: back,
      _done: "Added {hostname}",
      hostname: "cdn.example.com",
    });
    assertEquals(r.status, 303);
    assertEquals(r.headers.get("location"), back);
    const page = await owner.get(back);
    assertStringIncludes(page.text, "Added cdn.example.com");
    assertStringIncludes(page.text, "_cachely.cdn.example.com");
    assertStringIncludes(page.text, 'data-copy="cachely-verify=');
    const again = await owner.get(back);
    assert(!again.text.includes("Added cdn.example.com"), "the outcome is shown once");
  },
);

dbTest("form bridge: a refused field is named, in red, never as raw JSON", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const fields = {
    _api: `/api/tenants/${slug}/api-config`,
    _method: "PUT",
    _back: `/dashboard/${slug}/api`,
    "cacheTTL:number": "-5",
  };
  const json = await postForm(owner, fields, asJson);
  assertEquals(json.status, 200);
  assertEquals(json.body.status, 400);
  assertEquals(json.body.outcome.ok, false);
  assertStringIncludes(json.body.outcome.message, "cacheTTL");
  assert(json.body.outcome.fields.cacheTTL, "the field is named for marking in place");
  await postForm(owner, fields);
  const page = await owner.get(`/dashboard/${slug}/api`);
  assertStringIncludes(page.text, 'class="notice error" role="alert"');
  assertStringIncludes(page.text, "<code>cacheTTL</code>");
  assert(!page.text.includes('{"error"'), "no raw JSON on the page");
});

dbTest(
  "form bridge: saved state is what the page shows next (TTL does not snap back)",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const r = await postForm(owner, {
      _api: `/api/tenants/${slug}/api-config`,
      _method: "PUT",
      _back: `/dashboard/${slug}/api`,
      "cacheTTL:number": "321",
      "apiOrigin:null": "https://api.example.com",
    }, asJson);
    assertEquals(r.body.outcome.ok, true, r.text);
    const page = await owner.get(`/dashboard/${slug}/api`);
    assertStringIncludes(page.text, 'value="321"');
    assertStringIncludes(page.text, 'value="https://api.example.com"');
  },
);

dbTest(
  "form bridge: a 2xx that is not a success (failed verification) is a failure",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    await owner.post(`/api/tenants/${slug}/domains`, { hostname: "nx.invalid-example.test" });
    const r = await postForm(owner, {
      _api: `/api/tenants/${slug}/domains/verify`,
      _back: `/dashboard/${slug}/domains`,
      _expect: "status=active",
      _fail: "{hostname} is not verified yet: {failureReason}",
      hostname: "nx.invalid-example.test",
    }, asJson);
    assertEquals(r.body.outcome.ok, false, r.text);
    assertStringIncludes(r.body.outcome.message, "nx.invalid-example.test is not verified yet");
  },
);

dbTest("form bridge: destructive forms ask first without JavaScript", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const fields = {
    _api: `/api/tenants/${slug}/refresh-cache`,
    _back: `/dashboard/${slug}/cache`,
    _confirm: "Purge cached API responses?",
    type: "api",
  };
  const ask = await postForm(owner, fields);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.text, "Purge cached API responses?");
  assertStringIncludes(ask.text, 'name="_confirmed" value="1"');
  assertEquals((await owner.get(`/api/tenants/${slug}`)).body.value.apiCacheVersion, 1);
  const done = await postForm(owner, { ...fields, _confirmed: "1" });
  assertEquals(done.status, 303);
  assertEquals((await owner.get(`/api/tenants/${slug}`)).body.value.apiCacheVersion, 2);
});

dbTest(
  "form bridge: reveals a secret once, refuses non-API targets and cross-site posts",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const r = await postForm(owner, {
      _api: `/api/tenants/${slug}/cache-refresh-webhooks`,
      _reveal: "url",
      _reveal_label: "Webhook URL",
      provider: "generic",
      "refreshAssets:bool": "false",
    }, asJson);
    assertEquals(r.body.outcome.ok, true, r.text);
    assertStringIncludes(r.body.outcome.reveal.value, "/api/webhooks/cache-refresh/");
    for (const api of ["/dashboard", "https://evil.example/api/x", "/api/../logout"]) {
      const bad = await postForm(owner, { _api: api }, asJson);
      assertEquals(bad.status, 400, api);
    }
    const csrf = await postForm(
      owner,
      { _api: `/api/tenants/${slug}/refresh-cache`, type: "api" },
      {
        origin: "https://evil.example",
      },
    );
    assertEquals(csrf.status, 403);
  },
);

dbTest(
  "form bridge: logging in through the form sets the session and follows next",
  async (app) => {
    const user = await signUp(app);
    const anon = new Client(app);
    const r = await postForm(anon, {
      _api: "/api/auth/login",
      _back: "/login",
      _next: "/dashboard",
      email: user.email,
      password: "correct horse battery",
    });
    assertEquals(r.status, 303);
    assertEquals(r.headers.get("location"), "/dashboard");
    assertEquals((await anon.get("/api/auth/me")).status, 200);
    const expired = await postForm(new Client(app), {
      _api: "/api/tenants",
      _back: "/dashboard/x/cache",
    });
    assertEquals(expired.status, 303);
    assertEquals(expired.headers.get("location"), "/login?next=%2Fdashboard%2Fx%2Fcache");
  },
);

dbTest("with data, every area shows the server's records in people's terms", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const api = `/api/tenants/${slug}`;
  assertEquals((await owner.post(`${api}/domains`, { hostname: "cdn.example.com" })).status, 201);
  assertEquals(
    (await owner.post(`${api}/cache-refresh-webhooks`, { provider: "sanity" })).status,
    201,
  );
  const rule = await owner.post(`${api}/ai-transform/rules`, {
    presetId: "translate",
    fieldSelector: "items[*].title",
    targetLanguage: "de",
    profile: "german",
  });
  assertEquals(rule.status, 201, rule.text);
  const exp = await owner.post(`${api}/ai-experiments`, {
    name: "German titles",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "german", transformProfile: "german" }],
  });
  assertEquals(exp.status, 201, exp.text);
  await invite(owner, slug, "pending@example.com", "editor");
  const ingest = await owner.request("POST", "/api/usage/ingest", {
    records: [
      { tenant: slug, bytes: 3_000_000, path: "/~api/posts", status: 200, cache: "HIT" },
      { tenant: slug, bytes: 1024, path: "/~api/posts", status: 502, cache: "MISS" },
    ],
  }, { "x-ingest-key": "dashboard-ingest-key-123" });
  assertEquals(ingest.status, 200, ingest.text);
  await app.instance.usageAggregator.flush();

  const page = async (area: string) => (await owner.get(`/dashboard/${slug}/${area}`)).text;
  const domains = await page("domains");
  assertStringIncludes(domains, "cdn.example.com");
  assertStringIncludes(domains, 'class="badge warn">pending');
  // the shared CNAME target to copy, the tenant host named as the alternative
  assertStringIncludes(domains, 'data-copy="proxy.localhost"');
  assertStringIncludes(domains, `<code>${slug}.localhost</code>`);
  assertStringIncludes(await page("webhooks"), "sanity");
  const ai = await page("ai");
  assertStringIncludes(ai, "Translate");
  assertStringIncludes(ai, "items[*].title");
  assertStringIncludes(ai, 'data-island="PreviewPanel"');
  const experiments = await page("experiments");
  assertStringIncludes(experiments, "German titles");
  assertStringIncludes(experiments, 'value="active"');
  const members = await page("members");
  assertStringIncludes(members, "pending@example.com");
  assertStringIncludes(members, "members/revoke-invite");
  const usage = await page("usage");
  assertStringIncludes(usage, "3.00 MB");
  assertStringIncludes(usage, "<svg");
  for (const chart of ["requests-day", "edge-latency-day", "origin-latency-day"]) {
    assertStringIncludes(usage, `<figure class="chart" data-chart="${chart}">`);
  }
  assertStringIncludes(usage, "Edge latency p50 · p95 · p99");
  // the hour view: the last 48 hours, same charts per hour
  const hours = await page("usage?view=hours");
  for (const chart of ["requests-hour", "edge-latency-hour"]) {
    assertStringIncludes(hours, `<figure class="chart" data-chart="${chart}">`);
  }
  assertStringIncludes(hours, '<strong aria-current="true">per hour (last 48 h)</strong>');
  assertStringIncludes(hours, `href="/dashboard/${slug}/usage?view=days"`);
  const logs = await page("logs");
  assertStringIncludes(logs, "/~api/posts");
  assertStringIncludes(logs, 'class="badge error">502');
  const audit = await page("audit");
  assertStringIncludes(audit, owner.email, "audit names people by email, not id");
  assert(!audit.includes(`>${owner.userId}<`), "no raw user ids");
  assertStringIncludes(audit, "data-local", "times are localised in the browser");
}, { env: { INGEST_KEY: "dashboard-ingest-key-123", REQUEST_LOG_SAMPLE_RATE: "1" } });

dbTest("error pages: an unknown tenant is a 404 page, not raw JSON", async (app) => {
  const owner = await signUp(app);
  for (const area of ["", "/domains", "/ai"]) {
    const r = await owner.get(`/dashboard/no-such-tenant${area}`);
    assertEquals(r.status, 404);
    assertStringIncludes(r.headers.get("content-type") ?? "", "text/html");
    assertStringIncludes(r.text, 'role="alert" data-error-code="not_found"');
    assert(!r.text.includes('{"error"'));
  }
});

/**
 * The fields a rendered form would post: every input (hidden or not) with its value, every
 * select's selected option, every checked checkbox (a browser's "successful controls").
 */
function formOf(html: string, label: string): [string, string][] {
  const start = html.indexOf(`aria-label="${label}"`);
  assert(start > 0, `form "${label}" is on the page`);
  const body = html.slice(start, html.indexOf("</form>", start));
  const out: [string, string][] = [];
  for (const m of body.matchAll(/<input([^>]*)>/g)) {
    const attr = (n: string) => m[1].match(new RegExp(` ${n}="([^"]*)"`))?.[1];
    const name = attr("name");
    if (!name) continue;
    if (attr("type") === "checkbox" && !/ checked/.test(m[1])) continue;
    out.push([name, (attr("value") ?? "").replaceAll("&amp;", "&")]);
  }
  for (const m of body.matchAll(/<select[^>]* name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    const sel = m[2].match(/<option value="([^"]*)" selected/) ??
      m[2].match(/<option value="([^"]*)"/);
    if (sel) out.push([m[1], sel[1]]);
  }
  return out;
}

async function submitRendered(
  c: Client,
  path: string,
  label: string,
  values: Record<string, string> = {},
) {
  const page = await c.get(path);
  const fields = new URLSearchParams([...formOf(page.text, label), ...Object.entries(values)]);
  fields.set("_confirmed", "1");
  const r = await c.request("POST", "/forms", fields.toString(), {
    "content-type": "application/x-www-form-urlencoded",
    ...asJson,
  });
  assertEquals(r.status, 200, r.text);
  return r.body as { status: number; outcome: { ok: boolean; message: string }; next?: string };
}

dbTest("the rendered management forms work against the API as posted", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const base = `/dashboard/${slug}`;
  const api = `/api/tenants/${slug}`;
  const ok = async (path: string, label: string, values?: Record<string, string>) => {
    const r = await submitRendered(owner, `${base}/${path}`, label, values);
    assert(r.outcome.ok, `${label}: ${r.outcome.message}`);
    return r;
  };
  // Domains: add, remove.
  await ok("domains", "Add a domain", { hostname: "cdn.example.com" });
  await ok("domains", "Remove cdn.example.com");
  assertEquals((await owner.get(`${api}/domains`)).body.domains.length, 0);
  // Members: invite, revoke; a member's role change and removal.
  await ok("members", "Invite someone", { email: "later@example.com" });
  const inv = (await owner.get(`${api}/members`)).body.invites[0];
  await ok("members", `Revoke invite for ${inv.email}`);
  assertEquals((await owner.get(`${api}/members`)).body.invites.length, 0);
  const member = await signUp(app);
  const token = await invite(owner, slug, member.email, "viewer");
  await member.post("/api/invites/accept", { token });
  await ok("members", `Change role of ${member.email}`, { role: "editor" });
  const roles = (await owner.get(`${api}/members`)).body.members;
  assertEquals(roles.find((m: { email: string }) => m.email === member.email).role, "editor");
  await ok("members", `Remove ${member.email}`);
  // Webhooks: create, regenerate, delete.
  const created = await ok("webhooks", "Create a webhook");
  assertStringIncludes(JSON.stringify(created), "/api/webhooks/cache-refresh/");
  const hook = (await owner.get(`${api}/cache-refresh-webhooks`)).body.webhooks[0];
  await ok("webhooks", `Regenerate webhook ${hook.id}`);
  await ok("webhooks", `Delete webhook ${hook.id}`);
  // AI: limits, create, edit, activate, pause, resume, delete.
  await ok("ai", "AI limits", { "monthlyTokenCap:numnull": "5000" });
  assertEquals(
    (await owner.get(`${api}/ai-transform/settings`)).body.settings.monthlyTokenCap,
    5000,
  );
  await ok("ai", "Create a rule", {
    presetId: "translate",
    fieldSelector: "title",
    targetLanguage: "de",
  });
  await ok("ai", "Edit rule 1", { targetLanguage: "fr" });
  await ok("ai", "Activate rule 1");
  await ok("ai", "Pause rule 1");
  await ok("ai", "Resume rule 1");
  assertEquals((await owner.get(`${api}/ai-transform/rules`)).body.rules[0].targetLanguage, "fr");
  await ok("ai", "Delete rule 1");
  // Experiments: create, archive.
  await ok("experiments", "Create an experiment", {
    name: "Split",
    "variants.0.key": "control",
    "variants.1.key": "other",
  });
  await ok("experiments", "Activate Split");
  await ok("experiments", "Archive Split");
  // Settings and tenant deletion.
  await ok("settings", "Website settings", { "websiteOrigin:null": "https://www.example.com" });
  assertEquals((await owner.get(api)).body.value.websiteOrigin, "https://www.example.com");
  const del = await ok("settings", "Delete tenant");
  assertEquals(del.next, "/dashboard");
  assertEquals((await owner.get(api)).status, 404);
});

dbTest("experiments: name, route and variants are edited from the dashboard", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const api = `/api/tenants/${slug}/ai-experiments`;
  const created = await owner.post(api, {
    name: "Split",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "other", weight: 2 }, { key: "third" }],
  });
  assertEquals(created.status, 201, created.text);
  const id = created.body.id;
  const path = `/dashboard/${slug}/experiments`;
  const send = (label: string, values?: Record<string, string>) =>
    submitRendered(owner, path, label, values);
  const get = async () => (await owner.get(`${api}/${id}`)).body;

  const renamed = await send("Edit Split", { name: "Split titles", routePattern: "/articles" });
  assert(renamed.outcome.ok, renamed.outcome.message);
  assertEquals([(await get()).name, (await get()).routePattern], ["Split titles", "/articles"]);

  // The prefilled rows post the set unchanged but for what the person changed: a weight,
  // a removed row (its box ticked), a new row in the first blank one.
  const replaced = await send("Replace variants of Split titles", {
    "variants.1.weight:number": "5",
    "variants.2._remove:bool": "true",
    "variants.3.key": "fourth",
    "variants.3.label": "Fourth arm",
  });
  assert(replaced.outcome.ok, replaced.outcome.message);
  assertEquals(
    (await get()).variants.map((v: { key: string; label: string; weight: number }) =>
      `${v.key}/${v.label}/${v.weight}`
    ),
    ["control/control/1", "other/other/5", "fourth/Fourth arm/1"],
  );

  const dup = await send("Replace variants of Split titles", { "variants.3.key": "control" });
  assertEquals(dup.outcome.ok, false);
  assert(
    (dup.outcome as { fields?: Record<string, string> }).fields?.["variants.3.key"],
    JSON.stringify(dup.outcome),
  );
  assertEquals((await get()).variants.length, 3, "a refused set changes nothing");

  assert((await send("Activate Split titles")).outcome.ok);
  const page = await owner.get(path);
  assertStringIncludes(page.text, 'aria-label="Back to draft Split titles"');
  assert((await send("Back to draft Split titles")).outcome.ok);
  assertEquals((await get()).status, "draft");
});

dbTest("experiments: a viewer sees variants but no form that changes them", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const api = `/api/tenants/${slug}/ai-experiments`;
  const created = await owner.post(api, {
    name: "Split",
    variants: [{ key: "control" }, { key: "other" }],
  });
  assertEquals(created.status, 201, created.text);
  assertEquals(
    (await owner.patch(`${api}/${created.body.id}`, { status: "active" })).status,
    200,
  );
  const viewer = await signUp(app);
  const token = await invite(owner, slug, viewer.email, "viewer");
  await viewer.post("/api/invites/accept", { token });
  const page = await viewer.get(`/dashboard/${slug}/experiments`);
  assertEquals(page.status, 200);
  assertStringIncludes(page.text, "<code>other</code>");
  assertStringIncludes(page.text, 'data-refusal="editor"');
  for (const form of ["Edit Split", "Replace variants of Split", "Back to draft Split"]) {
    assert(!page.text.includes(`aria-label="${form}"`), form);
  }
  // The API refuses the same change from a viewer, whatever the page shows.
  const r = await viewer.request(
    "POST",
    "/forms",
    new URLSearchParams({
      _api: `${api}/${created.body.id}/variants`,
      _method: "PUT",
      "variants.0.key": "a",
    }).toString(),
    { "content-type": "application/x-www-form-urlencoded", ...asJson },
  );
  assertEquals(r.body.status, 403, r.text);
});

dbTest("webhooks: disable and enable from the dashboard; an editor sees no switch", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const hooks = `/api/tenants/${slug}/cache-refresh-webhooks`;
  const created = await owner.post(hooks, { provider: "sanity" });
  assertEquals(created.status, 201, created.text);
  const { id } = created.body.webhook;
  const path = `/dashboard/${slug}/webhooks`;
  const off = await submitRendered(owner, path, `Disable webhook ${id}`);
  assert(off.outcome.ok, off.outcome.message);
  assertEquals((await owner.get(hooks)).body.webhooks[0].enabled, false);
  const page = await owner.get(path);
  assertStringIncludes(page.text, 'class="badge warn">disabled');
  assertStringIncludes(
    page.text,
    `aria-label="Webhook ${id}" data-scope="all" data-enabled="false"`,
  );
  const on = await submitRendered(owner, path, `Enable webhook ${id}`);
  assert(on.outcome.ok, on.outcome.message);
  const assets = await submitRendered(owner, path, `Asset purge of webhook ${id}`);
  assert(assets.outcome.ok, assets.outcome.message);
  const [hook] = (await owner.get(hooks)).body.webhooks;
  assertEquals([hook.enabled, hook.refreshAssets], [true, true]);
  assertEquals(
    (await new Client(app).post(new URL(created.body.url).pathname, {})).status,
    200,
    "the URL survived the switch",
  );

  const editor = await signUp(app);
  await editor.post("/api/invites/accept", {
    token: await invite(owner, slug, editor.email, "editor"),
  });
  const seen = await editor.get(path);
  assertEquals(seen.status, 200);
  assertStringIncludes(seen.text, 'data-refusal="admin"', "the editor is told admin is needed");
  assert(!seen.text.includes(`aria-label="Disable webhook ${id}"`), "no switch for an editor");
});

Deno.test("page() puts the CSP nonce of a security-headers middleware on the one script", async () => {
  const { Hono } = await import("hono");
  const { page } = await import("../routes/pages/render.tsx");
  const { Layout } = await import("../components/Layout.tsx");
  const app = new Hono();
  app.use("*", async (c, next) => {
    c.set("secureHeadersNonce" as never, "n0nce123" as never);
    // page() reads its flash cookie by the app's cookie name, which depends on PUBLIC_URL
    c.set("services" as never, { config: { publicUrl: "http://localhost:8000" } } as never);
    await next();
  });
  // deno-lint-ignore no-explicit-any -- a bare Hono app stands in for the management app
  app.get("/", (c) => page(c as any, <Layout title="T">body</Layout>));
  const html = await (await app.request("/")).text();
  assertStringIncludes(html, 'src="/static/build/islands.js" nonce="n0nce123"');
  assertEquals(html.match(/<script/g)?.length, 1, "one script tag");
});
