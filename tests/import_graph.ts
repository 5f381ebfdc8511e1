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
