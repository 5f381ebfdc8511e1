/**
 * Dependency direction (docs/architecture.md "Module map"): routes → lib and edge → lib, never
 * back. lib/ is the domain and the pure helpers both sides share; it never imports the request
 * hot path (edge/), the HTTP layer (routes/, app.ts) or the UI (components/, islands/). A helper
 * lib and edge both need lives in lib as a pure module (no database, no services), and the edge
 * imports it there (tests/edge_security_test.ts keeps lib/db out of the edge's graph).
 *
 * Exceptions, each for a reason:
 * - lib/bootstrap.ts is the one composition root: it builds the edge and the app and wires them.
 * - `import type` of edge/types.ts (the edge's contract with its host: UsageRecord, UsageSink,
 *   TransformRunner) and of app.ts (Handler): types vanish at run time and pull in no code.
 */
import { assert, assertEquals } from "./assert.ts";
import { importGraph } from "./import_graph.ts";

const ROOT = new URL("../", import.meta.url).href;
const rel = (s: string) => s.startsWith(ROOT) ? s.slice(ROOT.length) : s;

/** What lib/ may not import at run time. */
const OUTSIDE_LIB = /^(edge|routes|components|islands)\/|^(app|main|cli)\.tsx?$|^cli\//;
/** The modules lib/ may name in `import type`, beyond lib/ itself. */
const TYPE_ONLY_ALLOWED = new Set(["edge/types.ts", "app.ts"]);
const COMPOSITION_ROOT = "lib/bootstrap.ts";

/** Every lib → outside edge the rules refuse, as `from → to (runtime|type)`. */
function directionViolations(graph: Map<string, { code: string[]; types: string[] }>) {
  const out: string[] = [];
  for (const [spec, deps] of graph) {
    const from = rel(spec);
    if (!from.startsWith("lib/") || from === COMPOSITION_ROOT) continue;
    for (const to of deps.code.map(rel)) {
      if (OUTSIDE_LIB.test(to)) out.push(`${from} → ${to} (runtime)`);
    }
    for (const to of deps.types.map(rel)) {
      if (OUTSIDE_LIB.test(to) && !TYPE_ONLY_ALLOWED.has(to)) out.push(`${from} → ${to} (type)`);
    }
  }
  return [...new Set(out)].sort();
}

for (const entry of ["main.ts", "cli.ts"]) {
  Deno.test(`lib/ never imports edge/, routes/ or the UI (graph of ${entry})`, async () => {
    const g = await importGraph(new URL(entry, ROOT));
    const mods = [...g.keys()].map(rel);
    assert(mods.some((m) => m.startsWith("lib/ai/")), "graph walked");
    assert(mods.some((m) => m.startsWith("routes/api/")), "lazy routes walked");
    assertEquals(directionViolations(g), []);
  });
}

Deno.test("the direction check refuses lib → edge, allows the root and contract types", () => {
  const f = (p: string) => new URL(p, ROOT).href;
  const g = new Map([
    [f("lib/ai/x.ts"), { code: [f("edge/cache/lru.ts"), f("lib/log.ts")], types: [] }],
    [f("lib/usage/y.ts"), { code: [], types: [f("edge/types.ts"), f("edge/site.ts")] }],
    [f("lib/tenants/z.ts"), { code: [f("routes/api/tenants.ts")], types: [] }],
    [f(COMPOSITION_ROOT), { code: [f("edge/mod.ts"), f("app.ts")], types: [] }],
    [f("edge/site.ts"), { code: [f("lib/clock.ts")], types: [] }],
  ]);
  assertEquals(directionViolations(g), [
    "lib/ai/x.ts → edge/cache/lru.ts (runtime)",
    "lib/tenants/z.ts → routes/api/tenants.ts (runtime)",
    "lib/usage/y.ts → edge/site.ts (type)",
  ]);
});
