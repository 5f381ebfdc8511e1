/**
 * The program's local import graph as deno builds it from an entry point (`deno info --json`),
 * dynamic imports included, for the tests that hold its shape (tests/import_cycles_test.ts,
 * tests/import_direction_test.ts).
 */

type Info = {
  modules: Array<
    {
      specifier: string;
      dependencies?: Array<{ code?: { specifier?: string }; type?: { specifier?: string } }>;
    }
  >;
};

/** A module's local imports: `code` are runtime imports, `types` those only `import type` names. */
export type Imports = { code: string[]; types: string[] };

/** Every local module reachable from `entry` (a URL) with its imports; npm packages left out. */
export async function importGraph(entry: URL): Promise<Map<string, Imports>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry.pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  const local = (s: string | undefined): s is string =>
    !!s && s.startsWith("file://") && !s.includes("/node_modules/");
  const g = new Map<string, Imports>();
  for (const m of info.modules) {
    if (!local(m.specifier)) continue;
    const deps = m.dependencies ?? [];
    // deno_graph puts `import type` in `type`, value imports in `code`.
    const code = deps.map((d) => d.code?.specifier).filter(local);
    const types = deps.filter((d) => !local(d.code?.specifier)).map((d) => d.type?.specifier)
      .filter(local);
    g.set(m.specifier, { code, types });
  }
  return g;
}

/** The runtime edges only (type-only imports vanish at run time). */
export function runtimeEdges(g: Map<string, Imports>): Map<string, string[]> {
  return new Map([...g].map(([k, v]) => [k, v.code]));
}

/** Strongly connected components with more than one node (Tarjan), each sorted. */
export function components(g: Map<string, Iterable<string>>): string[][] {
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
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}
