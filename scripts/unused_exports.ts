/**
 * Fails on exports imported nowhere (`deno task check` runs it): every local module is parsed
 * with the TypeScript compiler API, each `import`/`export … from` and dynamic `import()` is
 * resolved to the module it names, and an export no other module names is reported. A use
 * through `export *` counts for the module re-exported; a namespace import or a dynamic import
 * counts as a use of every export. Entry points, the SDK's published entry points (sdk/jsr.json)
 * and the bench scenarios (loaded by file name) are public: their exports count as used. Test
 * files' own exports are not reported.
 *
 * Two kinds: an export its own module does not use either is dead (a dead definition or a stale
 * re-export) and always fails; one its module uses is only exported for nothing, and fails unless
 * it is in scripts/unused_exports_baseline.txt, the list of those found when the check landed,
 * which may only shrink (an entry no longer found fails too, so the list stays true).
 *
 * Usage: deno run --config deno.dev.json --allow-read --allow-env scripts/unused_exports.ts
 */
import ts from "typescript";
import { APP_DIRS, APP_FILES } from "./source_roots.ts";

const ROOT = new URL("../", import.meta.url);
const ROOTS = [...APP_DIRS, "tests", "bench", "scripts"];
const TOP_FILES = APP_FILES;
/** Modules whose exports are public: programs, the SDK's published entries, the bundle root. */
const PUBLIC = new Set([
  "main.ts",
  "cli.ts",
  "islands/client.tsx",
  "lib/db/migrate_main.ts",
  "sdk/mod.ts",
  "sdk/contentful.ts",
  "sdk/prismic.ts",
  "sdk/tracker.ts",
]);
/** Folders whose modules are loaded by file name (bench/run.ts reads `scenario`). */
const PUBLIC_DIRS = ["bench/scenarios/"];
const BASELINE = new URL("scripts/unused_exports_baseline.txt", ROOT);

type Module = {
  exports: Set<string>;
  /** Identifier occurrences per name in the module (the export's own name included). */
  mentions: Map<string, number>;
  /** `export * from` targets. */
  stars: string[];
  /** (module, name) this module uses; name "*" for every export. */
  uses: [string, string][];
};

async function sourceFiles(): Promise<string[]> {
  const out: string[] = [...TOP_FILES];
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(new URL(dir, ROOT))) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) {
        if (e.name !== "node_modules" && e.name !== "dist" && !e.name.startsWith(".")) {
          await walk(p);
        }
      } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
    }
  };
  for (const r of ROOTS) await walk(r);
  return out.sort();
}

/** `spec` imported from `from`, as a path relative to the root, or null when not local. */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const url = new URL(spec, new URL(from, ROOT));
  return url.href.slice(ROOT.href.length);
}

const isExported = (n: ts.Node) =>
  ts.canHaveModifiers(n) &&
  (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (n: ts.Node) =>
  ts.canHaveModifiers(n) &&
  (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function parse(path: string, text: string): Module {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const m: Module = { exports: new Set(), mentions: new Map(), stars: [], uses: [] };
  const use = (spec: string, name: string) => {
    const to = resolve(path, spec);
    if (to) m.uses.push([to, name]);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (!clause) use(spec, "*"); // side-effect import: nothing named
      else {
        if (clause.name) use(spec, "default");
        const b = clause.namedBindings;
        if (b && ts.isNamespaceImport(b)) use(spec, "*");
        if (b && ts.isNamedImports(b)) {
          for (const el of b.elements) use(spec, (el.propertyName ?? el.name).text);
        }
      }
    } else if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)
        ? st.moduleSpecifier.text
        : null;
      if (!st.exportClause) {
        const to = spec && resolve(path, spec);
        if (to) m.stars.push(to);
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          m.exports.add(el.name.text);
          if (spec) use(spec, (el.propertyName ?? el.name).text);
        }
      } else if (spec) {
        m.exports.add(st.exportClause.name.text); // export * as ns from
        use(spec, "*");
      }
    } else if (ts.isExportAssignment(st)) {
      m.exports.add("default");
    } else if (isExported(st)) {
      if (isDefault(st)) m.exports.add("default");
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) m.exports.add(d.name.text);
        }
      } else if ("name" in st && st.name && ts.isIdentifier(st.name as ts.Node)) {
        m.exports.add((st.name as ts.Identifier).text);
      }
    }
  }
  // import("./x") and typeof import("./x"): every export may be read
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) m.mentions.set(n.text, (m.mentions.get(n.text) ?? 0) + 1);
    if (
      ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])
    ) use(n.arguments[0].text, "*");
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      const lit = n.argument.literal;
      if (ts.isStringLiteral(lit)) use(lit.text, n.qualifier ? n.qualifier.getText() : "*");
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return m;
}

/** Every export no other module names, as `path: name`, sorted, by whether its module uses it. */
function unusedExports(modules: Map<string, Module>): { dead: string[]; localOnly: string[] } {
  const used = new Set<string>();
  const mark = (path: string, name: string, seen = new Set<string>()): void => {
    const key = `${path}\0${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const m = modules.get(path);
    if (!m) return;
    if (name === "*") {
      for (const e of m.exports) used.add(`${path}\0${e}`);
      for (const s of m.stars) mark(s, "*", seen);
      return;
    }
    used.add(key);
    if (!m.exports.has(name)) { for (const s of m.stars) mark(s, name, seen); }
  };
  for (const [path, m] of modules) {
    if (PUBLIC.has(path) || PUBLIC_DIRS.some((d) => path.startsWith(d))) mark(path, "*");
    for (const [to, name] of m.uses) mark(to, name);
  }
  const dead: string[] = [];
  const localOnly: string[] = [];
  for (const [path, m] of modules) {
    if (/_test\.tsx?$/.test(path)) continue;
    for (const e of m.exports) {
      if (used.has(`${path}\0${e}`)) continue;
      ((m.mentions.get(e) ?? 0) > 1 ? localOnly : dead).push(`${path}: ${e}`);
    }
  }
  return { dead: dead.sort(), localOnly: localOnly.sort() };
}

if (import.meta.main) {
  const modules = new Map<string, Module>();
  for (const f of await sourceFiles()) {
    modules.set(f, parse(f, await Deno.readTextFile(new URL(f, ROOT))));
  }
  const { dead, localOnly } = unusedExports(modules);
  if (Deno.args.includes("--write-baseline")) {
    await Deno.writeTextFile(BASELINE, localOnly.join("\n") + "\n");
  }
  const baseline = new Set((await Deno.readTextFile(BASELINE)).split("\n").filter(Boolean));
  const found = new Set(localOnly);
  const problems = [
    ...dead.map((e) => `${e} (used nowhere, not even in its module: remove it)`),
    ...localOnly.filter((e) => !baseline.has(e)).map((e) =>
      `${e} (used only in its module: drop the export)`
    ),
    ...[...baseline].filter((e) => !found.has(e)).map((e) =>
      `${e} (fixed: remove it from scripts/unused_exports_baseline.txt)`
    ),
  ];
  if (problems.length > 0) {
    console.error(`Exports imported nowhere:\n  ${problems.join("\n  ")}`);
    Deno.exit(1);
  }
  console.log(
    `unused exports: none new in ${modules.size} modules (${baseline.size} listed in the baseline)`,
  );
}
