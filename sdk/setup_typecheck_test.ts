/**
 * Every file `cachely setup` writes type-checks as the user's project compiles it:
 * the helper for each provider kind and framework, the Nuxt Prismic composable, and the
 * patched app/prismic/client (.ts, and .js with checkJs). The TypeScript compiler (npm) runs
 * on a virtual project whose node_modules holds the built package (sdk/dist, through its
 * package.json exports and types) and the CMS clients from Deno's npm cache; `process.env`
 * is declared as @types/node declares it. A generated file that does not type-check fails.
 */
import ts from "typescript";
import { assert, assertEquals, assertStringIncludes } from "../tests/assert.ts";
import { helperCode, helperPath } from "./setup_files.ts";
import type { ProviderConfig } from "./providers.ts";
import type { Framework } from "./setup_detect.ts";
import { patchPrismicClient } from "./setup_prismic_client.ts";
import { NUXT_CLIENT } from "./setup_fixtures.ts";
import { npmCacheDir } from "./build_types.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;
const ROOT = "/virtual-project";
const MODULES = `${ROOT}/node_modules/`;

/** One config per kind, with the identifier setup takes from its flag. */
const CONFIGS: ProviderConfig[] = [
  { cms: "contentful", spaceId: "abc123xyz" },
  { cms: "prismic", repository: "my-repo" },
  { cms: "sanity", projectId: "p1x2" },
  { cms: "shopify", storeDomain: "acme.myshopify.com" },
  { cms: "cloudinary", cloudName: "demo" },
  { cms: "imgix", imgixDomain: "acme.imgix.net" },
  { cms: "storyblok" },
  { cms: "generic", originUrl: "https://assets.example.com" },
];
const FRAMEWORKS: [Framework, boolean][] = [
  ["next", false],
  ["nuxt", false],
  ["nuxt", true],
  ["vite", false],
  ["unknown", false],
];

/**
 * The ambient types a project has: @types/node's process.env (Next, Nuxt), vite/client's
 * import.meta.env (Vite) and Nuxt's auto-imported useRuntimeConfig (.nuxt/ types).
 */
const ENV_DTS = `declare const process: { env: Record<string, string | undefined> };
interface ImportMeta { readonly env: Record<string, string | undefined> }
declare function useRuntimeConfig(): { public: Record<string, string | undefined> };
`;

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: [],
  skipLibCheck: true,
  allowJs: true,
  checkJs: true,
  resolveJsonModule: true,
  allowSyntheticDefaultImports: true,
};

const exists = (p: string) => {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
};

/** node_modules/<package>/<rest> → sdk/dist/<rest> or the package in Deno's npm cache. */
function packageMapper(cache: string) {
  const versions = new Map<string, string | null>();
  return (path: string): string | null => {
    if (!path.startsWith(MODULES)) return null;
    const parts = path.slice(MODULES.length).split("/");
    const n = parts[0].startsWith("@") ? 2 : 1;
    const name = parts.slice(0, n).join("/");
    const rest = parts.slice(n).join("/");
    if (name === "@cachely/sdk") return here(`./dist/${rest}`);
    if (!versions.has(name)) {
      const dir = `${cache}/registry.npmjs.org/${name}`;
      let found: string[] = [];
      try {
        found = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name);
      } catch { /* not in the cache */ }
      found.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
      versions.set(name, found.length ? `${dir}/${found[found.length - 1]}` : null);
    }
    const base = versions.get(name);
    return base ? `${base}${rest ? `/${rest}` : ""}` : `/nonexistent/${name}`;
  };
}

/** Type errors of the given project files ({ path under the project → text }), formatted. */
async function typeErrors(
  files: Record<string, string>,
  options: ts.CompilerOptions = OPTIONS,
): Promise<string[]> {
  const mapped = packageMapper(await npmCacheDir());
  const virtual = new Map<string, string>(
    Object.entries({ ...files, "env.d.ts": ENV_DTS }).map(([p, t]) => [`${ROOT}/${p}`, t]),
  );
  const dirs = new Set<string>([ROOT]);
  for (const p of virtual.keys()) {
    for (
      let d = p.slice(0, p.lastIndexOf("/"));
      d.length > ROOT.length;
      d = d.slice(0, d.lastIndexOf("/"))
    ) {
      dirs.add(d);
    }
  }
  const host = ts.createCompilerHost(options);
  const real = { ...host };
  const read = (p: string) => virtual.get(p) ?? real.readFile(mapped(p) ?? p);
  host.getCurrentDirectory = () => ROOT;
  host.realpath = (p) => p;
  host.fileExists = (p) => virtual.has(p) || exists(mapped(p) ?? p);
  host.readFile = read;
  host.directoryExists = (p) =>
    dirs.has(p) || p === `${ROOT}/node_modules` || exists(mapped(p) ?? p);
  host.getSourceFile = (name, lang) => {
    const text = read(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, lang);
  };
  const roots = [...virtual.keys()].filter((p) => !p.endsWith(".json"));
  const program = ts.createProgram(roots, options, host);
  return ts.getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => {
      const where = d.file
        ? `${d.file.fileName.replace(`${ROOT}/`, "")}:${
          d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1
        }`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

/** Every helper setup writes: one project directory per kind and framework. */
function generatedHelpers(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const cfg of CONFIGS) {
    for (const [fw, utils] of FRAMEWORKS) {
      const dir = `${cfg.cms}-${fw}${utils ? "-utils" : ""}`;
      const path = helperPath(fw, utils, cfg);
      files[`${dir}/${path}`] = helperCode(cfg, fw, utils, "0.14.0");
    }
  }
  return files;
}

Deno.test("every helper and composable cachely setup writes type-checks against the built package", async () => {
  const files = generatedHelpers();
  assertEquals(Object.keys(files).length, CONFIGS.length * FRAMEWORKS.length);
  assert(
    Object.keys(files).includes("prismic-nuxt/composables/useCachelyPrismicClient.ts"),
    "the Nuxt Prismic composable",
  );
  assertEquals(await typeErrors(files), []);
});

Deno.test("the subpath helpers type-check under moduleResolution node too (a tsconfig Next writes itself)", async () => {
  const files: Record<string, string> = {};
  for (const cfg of CONFIGS.filter((c) => c.cms === "prismic" || c.cms === "contentful")) {
    files[`${cfg.cms}/lib/cachely.ts`] = helperCode(cfg, "next", false, "0.14.0");
  }
  const node10 = { ...OPTIONS, moduleResolution: ts.ModuleResolutionKind.Node10 };
  assertEquals(await typeErrors(files, node10), []);
});

Deno.test("the patched Nuxt app/prismic/client (.ts, and .js with checkJs) type-checks", async () => {
  const patched = patchPrismicClient(NUXT_CLIENT);
  assert(patched.status === "patched");
  const sm = JSON.stringify({ repositoryName: "my-repo" });
  assertEquals(
    await typeErrors({
      "ts/app/prismic/client.ts": patched.text,
      "ts/slicemachine.config.json": sm,
      "js/app/prismic/client.js": patched.text,
      "js/slicemachine.config.json": sm,
    }),
    [],
  );
});

Deno.test("the check fails on a generated file that does not type-check", async () => {
  // what a wrong option name in a helper would look like: the check must name it
  const contentful = helperCode({ cms: "contentful", spaceId: "abc123xyz" }, "next", false, "0");
  const generic = helperCode(
    { cms: "generic", originUrl: "https://a.example" },
    "vite",
    false,
    "0",
  );
  const errors = await typeErrors({
    "a/lib/cachely.ts": contentful.replace("space:", "spaceId:"),
    "b/cachely.ts": generic.replace("assetHosts:", "assetHost:"),
    "c/app/prismic/client.js": NUXT_CLIENT.replace(
      'import * as prismic from "@prismicio/client";',
      'import * as prismic from "@cachely/sdk/prismic";',
    ).replace("../../slicemachine.config.json", "./sm.json"),
    "c/app/prismic/sm.json": JSON.stringify({ repositoryName: "my-repo" }),
  });
  assertEquals(errors.length, 3, errors.join("\n"));
  assertStringIncludes(errors[0], "a/lib/cachely.ts:");
  assertStringIncludes(errors[0], "spaceId");
  assertStringIncludes(errors[1], "b/cachely.ts:");
  assertStringIncludes(errors[2], "c/app/prismic/client.js:");
});
