/**
 * The `.d.ts` files of the npm package, emitted by the TypeScript compiler (npm) from
 * the sources. Imports of `.ts` files become `.js` (the form a published package
 * resolves); `@prismicio/client` resolves to its own declarations in Deno's npm cache.
 */
import ts from "typescript";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/** Entry points whose declarations are emitted (with everything they import). */
export const TYPE_ENTRIES = ["mod.ts", "contentful.ts", "prismic.ts", "tracker.ts"];

/** Deno's npm cache (registry.npmjs.org/<name>/<version>/ inside). */
export async function npmCacheDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).npmCache;
}

/** Declaration files as { dist path -> text }. */
export async function buildTypes(): Promise<Map<string, string>> {
  const cache = await npmCacheDir();
  const peers: Record<string, string> = {
    "@prismicio/client": `${cache}/registry.npmjs.org/@prismicio/client/7.22.0/dist/index.d.ts`,
  };
  const options: ts.CompilerOptions = {
    declaration: true,
    emitDeclarationOnly: true,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    strict: true,
    skipLibCheck: true,
    types: [],
    rootDir: here("."),
    outDir: "/dist-types",
  };
  const host = ts.createCompilerHost(options);
  const out = new Map<string, string>();
  host.writeFile = (name, text) => {
    const rel = name.replace(/^\/dist-types\//, "");
    out.set(
      here(`./dist/types/${rel}`),
      text.replace(/((?:from |import\()["']\.{1,2}\/[^"']+)\.ts(["'])/g, "$1.js$2"),
    );
  };
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((lit) => {
      const name = lit.text;
      if (peers[name]) {
        return {
          resolvedModule: {
            resolvedFileName: peers[name],
            extension: ts.Extension.Dts,
            isExternalLibraryImport: true,
          },
        };
      }
      return ts.resolveModuleName(name, containingFile, options, host);
    });
  const program = ts.createProgram(TYPE_ENTRIES.map((e) => here(`./${e}`)), options, host);
  const result = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics]
    .filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new Error(ts.formatDiagnostics(errors, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => here("."),
      getNewLine: () => "\n",
    }));
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
