/**
 * No runtime import cycle anywhere in the program: the graph deno builds from each entry point
 * (main.ts, cli.ts), dynamic imports included, type-only imports excluded (they vanish at run
 * time). Cycles make module initialisation order-dependent and hide which layer owns what.
 */
import { assert, assertEquals } from "./assert.ts";
import { importGraph, runtimeEdges } from "./import_graph.ts";

/** Runtime edges only: type-only imports vanish at run time. */
async function graph(entry: string): Promise<Map<string, string[]>> {
  return runtimeEdges(await importGraph(new URL(entry, import.meta.url)));
}

/** Strongly connected components with more than one module (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp);
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const short = (c: string[]) => c.map((m) => m.replace(/^.*\/(lib|edge|routes|cli|sdk)\//, "$1/"));

for (const entry of ["../main.ts", "../cli.ts"]) {
  Deno.test(`no runtime import cycle in the graph of ${entry.slice(3)} (deno info)`, async () => {
    const g = await graph(entry);
    assert([...g.keys()].some((s) => s.includes("/lib/edge_config/")), "graph walked");
    assert([...g.keys()].some((s) => s.includes("/routes/api/")), "lazy routes walked");
    assertEquals(cycles(g).map(short), []);
  });
}

Deno.test("the cycle finder finds a cycle (a graph with one)", () => {
  const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assertEquals(cycles(g).map((c) => c.sort()), [["a", "b", "c"]]);
});
