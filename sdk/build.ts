/**
 * Builds the npm form of the package into sdk/dist/ with esbuild (npm): one ES module
 * per entry point (cachely.mjs, contentful.mjs, prismic.mjs), the `cachely` bin
 * (bin/cachely.mjs, for Node), `.d.ts` types (types/, build_types.ts), package.json
 * with its exports map (version from sdk/jsr.json), README.md and CHANGELOG.md. The
 * tracker's own builds sit beside them (sdk/tracker_build.ts). Deno and JSR use the
 * .ts sources through sdk/jsr.json.
 *
 * The manifests live in dist/ (npm) and jsr.json (JSR) because a package.json or
 * deno.json in sdk/ itself would make Deno resolve sdk/ as a separate package.
 * `deno run --config deno.dev.json -A sdk/build.ts` writes them; `--check` fails when they are stale.
 */
import * as esbuild from "esbuild";
import { buildTypes } from "./build_types.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/** Optional peers: only the entry point that wraps them imports them. */
const PEERS = { contentful: ">=10 <12", "@prismicio/client": ">=7 <8" };

/** dist/package.json: exports per entry point, types for both TypeScript resolutions. */
function manifest(jsr: { name: string; version: string }) {
  return {
    name: jsr.name,
    version: jsr.version,
    description:
      "Cachely client library: fetch wrapper, provider helpers (Contentful, Prismic, \u2026), URL rewriting, experiment tracker and setup command",
    type: "module",
    license: "MIT",
    sideEffects: false,
    exports: {
      ".": { types: "./types/mod.d.ts", import: "./cachely.mjs", default: "./cachely.mjs" },
      "./contentful": {
        types: "./types/contentful.d.ts",
        import: "./contentful.mjs",
        default: "./contentful.mjs",
      },
      "./prismic": {
        types: "./types/prismic.d.ts",
        import: "./prismic.mjs",
        default: "./prismic.mjs",
      },
      "./tracker": {
        types: "./types/tracker.d.ts",
        import: "./cachely-tracker.mjs",
        default: "./cachely-tracker.mjs",
      },
      "./tracker.js": "./cachely-tracker.js",
      "./package.json": "./package.json",
    },
    types: "./types/mod.d.ts",
    // TypeScript's moduleResolution "node" (node10) ignores exports: the subpaths' types for it
    // (a tsconfig.json that Next writes itself uses it).
    typesVersions: {
      "*": {
        contentful: ["./types/contentful.d.ts"],
        prismic: ["./types/prismic.d.ts"],
        tracker: ["./types/tracker.d.ts"],
      },
    },
    bin: { cachely: "./bin/cachely.mjs" },
    peerDependencies: PEERS,
    peerDependenciesMeta: Object.fromEntries(
      Object.keys(PEERS).map((p) => [p, { optional: true }]),
    ),
    engines: { node: ">=18" },
  };
}

/** The npm package files as { path -> text }, built in memory. */
export async function buildSdk(): Promise<Map<string, string>> {
  const jsr = JSON.parse(await Deno.readTextFile(here("./jsr.json"))) as {
    name: string;
    version: string;
  };
  const common = {
    bundle: true,
    format: "esm" as const,
    target: "es2022",
    write: false,
    legalComments: "none" as const,
    // node:http: the loopback fetch for *.localhost outside browsers (sdk/fetch.ts), loaded on use.
    external: [...Object.keys(PEERS), "node:*"],
  };
  const entries: [string, string, "neutral" | "node"][] = [
    ["mod.ts", "cachely.mjs", "neutral"],
    ["contentful.ts", "contentful.mjs", "neutral"],
    ["prismic.ts", "prismic.mjs", "neutral"],
    ["bin.ts", "bin/cachely.mjs", "node"],
  ];
  const built = await Promise.all(entries.map(([src, _out, platform]) =>
    esbuild.build({
      ...common,
      entryPoints: [here(`./${src}`)],
      platform,
      banner: {
        // bin.ts starts with its own #! line, which esbuild keeps first.
        js: `/* ${jsr.name} ${jsr.version} (sdk/${src}) */`,
      },
    })
  ));
  await esbuild.stop();
  const pkg = manifest(jsr);
  const files = new Map<string, string>(
    entries.map(([, out], i) => [here(`./dist/${out}`), built[i].outputFiles![0].text]),
  );
  files.set(here("./dist/package.json"), JSON.stringify(pkg, null, 2) + "\n");
  files.set(here("./dist/README.md"), await Deno.readTextFile(here("./README.md")));
  files.set(here("./dist/CHANGELOG.md"), await Deno.readTextFile(here("./CHANGELOG.md")));
  for (const [path, text] of await buildTypes()) files.set(path, text);
  return files;
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = false;
  for (const [path, text] of await buildSdk()) {
    if (!check) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, text, {
        mode: path.endsWith("bin/cachely.mjs") ? 0o755 : 0o644,
      });
    } else if ((await Deno.readTextFile(path).catch(() => "")) !== text) {
      console.error(`stale: ${path} (run deno run --config deno.dev.json -A sdk/build.ts)`);
      stale = true;
    }
  }
  if (stale) Deno.exit(1);
}
