/**
 * Builds the tracker for browsers with esbuild (npm): an IIFE for a script tag
 * (sdk/dist/cachely-tracker.js) and an ES module (sdk/dist/cachely-tracker.mjs).
 * `deno run --config deno.dev.json -A sdk/tracker_build.ts` writes them; `--check` fails when they are stale.
 */
import * as esbuild from "esbuild";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/** The two browser builds as { path -> text }, built in memory. */
export async function buildTracker(): Promise<Map<string, string>> {
  const common = {
    bundle: true,
    minify: true,
    target: "es2019",
    platform: "browser" as const,
    write: false,
    legalComments: "none" as const,
    banner: { js: "/* Cachely experiment tracker (sdk/tracker.ts) */" },
  };
  const [iife, esm] = await Promise.all([
    esbuild.build({ ...common, entryPoints: [here("./tracker_global.ts")], format: "iife" }),
    esbuild.build({ ...common, entryPoints: [here("./tracker.ts")], format: "esm" }),
  ]);
  await esbuild.stop();
  return new Map([
    [here("./dist/cachely-tracker.js"), iife.outputFiles![0].text],
    [here("./dist/cachely-tracker.mjs"), esm.outputFiles![0].text],
  ]);
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = false;
  for (const [path, text] of await buildTracker()) {
    if (check) {
      const current = await Deno.readTextFile(path).catch(() => "");
      if (current !== text) {
        console.error(
          `stale: ${path} (run deno run --config deno.dev.json -A sdk/tracker_build.ts)`,
        );
        stale = true;
      }
    } else {
      await Deno.mkdir(here("./dist"), { recursive: true });
      await Deno.writeTextFile(path, text);
      console.log(`wrote ${path} (${text.length} bytes)`);
    }
  }
  if (stale) Deno.exit(1);
}
