/**
 * lib/ in layers: no runtime import cycle between lib/ areas (a folder under lib/, or a file
 * directly in lib/), in the graphs deno builds from main.ts, lib/bootstrap.ts, app.ts and cli.ts
 * (dynamic imports included, type-only imports excluded). Pure schema and text helpers live at
 * the bottom, in lib/base/, which imports no other area; areas depend downwards only.
 */
import { assert, assertEquals } from "./assert.ts";
import { components, importGraph, runtimeEdges } from "./import_graph.ts";

const ROOT = new URL("../", import.meta.url).href;
const ENTRIES = ["main.ts", "lib/bootstrap.ts", "app.ts", "cli.ts"];

/** The lib/ area of a module (`lib/http`, `lib/config.ts`), or null outside lib/. */
function areaOf(specifier: string): string | null {
  if (!specifier.startsWith(ROOT)) return null;
  const rel = specifier.slice(ROOT.length);
  const m = rel.match(/^lib\/([^/]+)/);
  return m ? `lib/${m[1]}` : null;
}

/** Runtime edges between different lib/ areas, each with one module edge that makes it. */
async function areaGraph(): Promise<Map<string, Map<string, string>>> {
  const g = new Map<string, Map<string, string>>();
  for (const entry of ENTRIES) {
    const modules = runtimeEdges(await importGraph(new URL(entry, ROOT)));
    for (const [from, tos] of modules) {
      const a = areaOf(from);
      if (!a) continue;
      for (const to of tos) {
        const b = areaOf(to);
        if (!b || b === a) continue;
        if (!g.has(a)) g.set(a, new Map());
        if (!g.get(a)!.has(b)) {
          g.get(a)!.set(b, `${from.slice(ROOT.length)} → ${to.slice(ROOT.length)}`);
        }
      }
    }
  }
  return g;
}

/**
 * Area edges inside a cycle today, each with one module import that makes it: the list may only
 * shrink. A new edge that closes a cycle fails the test; so does a listed edge no longer in one
 * (delete its line). Break a cycle by moving the shared piece down (lib/base/ for pure schema and
 * text helpers) or the reaching module up into the area that uses it.
 */
const IN_CYCLE_TODAY = new Set([
  "lib/admin → lib/auth", // lib/admin/password_reset.ts → lib/auth/sessions.ts
  "lib/admin → lib/billing", // lib/admin/view_schema.ts → lib/billing/plans.ts
  "lib/admin → lib/edge_config", // lib/admin/platform/kv_resync.ts → lib/edge_config/projector.ts
  "lib/admin → lib/usage", // lib/admin/daily.ts → lib/usage/query.ts
  "lib/admin → lib/users", // lib/admin/password_reset.ts → lib/users/mod.ts
  "lib/ai → lib/cache", // lib/ai/value_cache.ts → lib/cache/lru.ts
  "lib/ai → lib/edge_config", // lib/ai/regenerate.ts → lib/edge_config/projector.ts
  "lib/ai → lib/http", // lib/ai/rules.ts → lib/http/validate.ts
  "lib/ai → lib/tenants", // lib/ai/regenerate.ts → lib/tenants/service.ts
  "lib/ai → lib/usage", // lib/ai/usage.ts → lib/usage/days.ts
  "lib/auth → lib/admin", // lib/auth/forgot_password.ts → lib/admin/password_reset.ts
  "lib/auth → lib/dashboard", // lib/auth/oauth/link.ts → lib/dashboard/flash.ts
  "lib/auth → lib/http", // lib/auth/known_device.ts → lib/http/cookies.ts
  "lib/auth → lib/users", // lib/auth/email_verification.ts → lib/users/mod.ts
  "lib/billing → lib/admin", // lib/billing/earned.ts → lib/admin/platform/cost_model.ts
  "lib/billing → lib/domains", // lib/billing/quota_publish.ts → lib/domains/plan_rules.ts
  "lib/billing → lib/http", // lib/billing/webhook.ts → lib/http/validate.ts
  "lib/billing → lib/usage", // lib/billing/admin_view_schema.ts → lib/usage/query.ts
  "lib/billing → lib/users", // lib/billing/quota_mail.ts → lib/users/mod.ts
  "lib/cache → lib/edge_config", // lib/cache/edge_config.ts → lib/edge_config/projector.ts
  "lib/cache → lib/tenants", // lib/cache/edge_config.ts → lib/tenants/service.ts
  "lib/dashboard → lib/http", // lib/dashboard/flash.ts → lib/http/cookies.ts
  "lib/dashboard → lib/usage", // lib/dashboard/overview.ts → lib/usage/query.ts
  "lib/domains → lib/billing", // lib/domains/plan_rules.ts → lib/billing/owners.ts
  "lib/domains → lib/edge_config", // lib/domains/plan_rules.ts → lib/edge_config/changes.ts
  "lib/domains → lib/usage", // lib/domains/plan_rules.ts → lib/usage/query.ts
  "lib/edge_config → lib/ai", // lib/edge_config/projector.ts → lib/ai/snapshot.ts
  "lib/edge_config → lib/billing", // lib/edge_config/projector.ts → lib/billing/owners.ts
  "lib/edge_config → lib/cache", // lib/edge_config/projector.ts → lib/cache/purge_records.ts
  "lib/edge_config → lib/experiments", // lib/edge_config/projector.ts → lib/experiments/snapshot.ts
  "lib/edge_config → lib/preview", // lib/edge_config/projector.ts → lib/preview/snapshot.ts
  "lib/edge_config → lib/tenants", // lib/edge_config/projector.ts → lib/tenants/caching.ts
  "lib/experiments → lib/ai", // lib/experiments/activation.ts → lib/ai/profiles.ts
  "lib/experiments → lib/edge_config", // lib/experiments/guardrail_loop.ts → lib/edge_config/changes.ts
  "lib/experiments → lib/http", // lib/experiments/events.ts → lib/http/validate.ts
  "lib/experiments → lib/usage", // lib/experiments/arm_health.ts → lib/usage/latency.ts
  "lib/http → lib/auth", // lib/http/access.ts → lib/auth/token_scopes.ts
  "lib/http → lib/tenants", // lib/http/access.ts → lib/tenants/access.ts
  "lib/http → lib/usage", // lib/http/access.ts → lib/usage/ingest.ts
  "lib/http → lib/users", // lib/http/auth.ts → lib/users/mod.ts
  "lib/preview → lib/edge_config", // lib/preview/service.ts → lib/edge_config/changes.ts
  "lib/preview → lib/tenants", // lib/preview/service.ts → lib/tenants/settings_patch.ts
  "lib/tenants → lib/billing", // lib/tenants/service.ts → lib/billing/account.ts
  "lib/tenants → lib/edge_config", // lib/tenants/service.ts → lib/edge_config/changes.ts
  "lib/tenants → lib/http", // lib/tenants/access.ts → lib/http/auth.ts
  "lib/usage → lib/ai", // lib/usage/analytics.ts → lib/ai/usage.ts
  "lib/users → lib/auth", // lib/users/mod.ts → lib/auth/password.ts
]);

/** Every area edge whose two ends are in one strongly connected component. */
function inCycleEdges(g: Map<string, Map<string, string>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const comp of components(new Map([...g].map(([k, v]) => [k, v.keys()])))) {
    for (const a of comp) {
      for (const [b, why] of g.get(a) ?? []) if (comp.includes(b)) out.set(`${a} → ${b}`, why);
    }
  }
  return out;
}

Deno.test("no new runtime import cycle between lib/ areas; the listed ones only go", async () => {
  const g = await areaGraph();
  assert(g.has("lib/http") && g.has("lib/tenants"), "graph walked");
  const edges = inCycleEdges(g);
  const added = [...edges].filter(([e]) => !IN_CYCLE_TODAY.has(e)).map(([e, why]) =>
    `${e} (${why})`
  );
  assertEquals(added, [], "these area imports close a cycle");
  const gone = [...IN_CYCLE_TODAY].filter((e) => !edges.has(e));
  assertEquals(gone, [], "no longer in a cycle: remove from IN_CYCLE_TODAY");
});

Deno.test("lib/base imports no other lib/ area", async () => {
  const g = await areaGraph();
  assertEquals([...g.get("lib/base")?.keys() ?? []], []);
});

Deno.test("the area cycle finder sees a two-area cycle and not a chain", () => {
  const g = new Map([["lib/db", ["lib/metrics"]], ["lib/metrics", ["lib/db"]], ["lib/x", [
    "lib/db",
  ]]]);
  assertEquals(components(g), [["lib/db", "lib/metrics"]]);
  assertEquals(components(new Map([["lib/a", ["lib/b"]], ["lib/b", []]])), []);
  assertEquals(areaOf(`${ROOT}lib/http/text.ts`), "lib/http");
  assertEquals(areaOf(`${ROOT}lib/config.ts`), "lib/config.ts");
  assertEquals(areaOf(`${ROOT}edge/mod.ts`), null);
});
