/**
 * Builds the npm form of the package into sdk/dist/ with esbuild (npm):
 * cachely.mjs (sdk/mod.ts bundled, for Node and bundlers that do not read
 * TypeScript), package.json (version from sdk/jsr.json) and README.md. The
 * tracker's own builds sit beside them (sdk/tracker_build.ts). Deno and JSR use
 * the .ts sources through sdk/jsr.json.
 *
 * The manifests live in dist/ (npm) and jsr.json (JSR) because a package.json or
 * deno.json in sdk/ itself would make Deno resolve sdk/ as a separate package.
 * `deno run -A sdk/build.ts` writes them; `--check` fails when they are stale.
 */
import * as esbuild from "esbuild";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/** The npm package files as { path → text }, built in memory. */
export async function buildSdk(): Promise<Map<string, string>> {
  const jsr = JSON.parse(await Deno.readTextFile(here("./jsr.json"))) as {
    name: string;
    version: string;
  };
  const out = await esbuild.build({
    entryPoints: [here("./mod.ts")],
    bundle: true,
    format: "esm",
    target: "es2019",
    platform: "neutral",
    write: false,
    legalComments: "none",
    banner: { js: `/* ${jsr.name} ${jsr.version} (sdk/mod.ts) */` },
  });
  await esbuild.stop();
  const pkg = {
    name: jsr.name,
    version: jsr.version,
    description:
      "Cachely client library: response transformer, URL rewriter and experiment tracker",
    type: "module",
    license: "MIT",
    sideEffects: false,
    exports: {
      ".": "./cachely.mjs",
      "./tracker": "./cachely-tracker.mjs",
      "./tracker.js": "./cachely-tracker.js",
    },
    engines: { node: ">=18" },
  };
  return new Map([
    [here("./dist/cachely.mjs"), out.outputFiles![0].text],
    [here("./dist/package.json"), JSON.stringify(pkg, null, 2) + "\n"],
    [here("./dist/README.md"), await Deno.readTextFile(here("./README.md"))],
  ]);
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = false;
  for (const [path, text] of await buildSdk()) {
    if (!check) await Deno.writeTextFile(path, text);
    else if ((await Deno.readTextFile(path).catch(() => "")) !== text) {
      console.error(`stale: ${path} (run deno run -A sdk/build.ts)`);
      stale = true;
    }
  }
  if (stale) Deno.exit(1);
}
