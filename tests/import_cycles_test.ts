/**
 * No runtime import cycle anywhere in the program: the graph deno builds from each entry point
 * (main.ts, cli.ts), dynamic imports included, type-only imports excluded (they vanish at run
 * time). Cycles make module initialisation order-dependent and hide which layer owns what.
 */
import { assert, assertEquals } from "./assert.ts";
import { components, importGraph, runtimeEdges } from "./import_graph.ts";

/** Runtime edges only: type-only imports vanish at run time. */
async function graph(entry: string): Promise<Map<string, string[]>> {
  return runtimeEdges(await importGraph(new URL(entry, import.meta.url)));
}

const short = (c: string[]) => c.map((m) => m.replace(/^.*\/(lib|edge|routes|cli|sdk)\//, "$1/"));

for (const entry of ["../main.ts", "../cli.ts"]) {
  Deno.test(`no runtime import cycle in the graph of ${entry.slice(3)} (deno info)`, async () => {
    const g = await graph(entry);
    assert([...g.keys()].some((s) => s.includes("/lib/edge_config/")), "graph walked");
    assert([...g.keys()].some((s) => s.includes("/routes/api/")), "lazy routes walked");
    assertEquals(components(g).map(short), []);
  });
}

Deno.test("the cycle finder finds a cycle (a graph with one)", () => {
  const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assertEquals(components(g).map((c) => c.sort()), [["a", "b", "c"]]);
});
