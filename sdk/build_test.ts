import { assert, assertEquals } from "../tests/assert.ts";
import { buildSdk } from "./build.ts";
import { VERSION } from "./mod.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;

Deno.test("sdk/dist (npm form) is up to date with the sources: run deno run --config deno.dev.json -A sdk/build.ts", async () => {
  for (const [path, text] of await buildSdk()) {
    assertEquals(await Deno.readTextFile(path).catch(() => ""), text, `stale: ${path}`);
  }
});

Deno.test("VERSION, jsr.json and the npm package.json agree on 0.14.0", async () => {
  const jsr = JSON.parse(await Deno.readTextFile(here("./jsr.json")));
  const pkg = JSON.parse(await Deno.readTextFile(here("./dist/package.json")));
  assertEquals([VERSION, jsr.version, pkg.version], ["0.14.0", "0.14.0", "0.14.0"]);
});

Deno.test("the npm build runs under Node: transformer and URL rewriter", async () => {
  const script = `
    const m = await import(${JSON.stringify(here("./dist/cachely.mjs"))});
    const src = "https://res.cloudinary.com/demo/image/upload/v1/x.jpg";
    const o = { base: "https://t.example", cloudName: "demo" };
    console.log(JSON.stringify([m.VERSION, m.transformResponse({ a: src }, o).a, m.rewriteUrl(src, o)]));`;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("node", {
      args: ["--input-type=module", "-e", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      console.warn("node is not installed; skipped");
      return;
    }
    throw e;
  }
  assert(out.success, new TextDecoder().decode(out.stderr));
  assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), [
    "0.14.0",
    "https://t.example/image/upload/v1/x.jpg",
    "https://t.example/demo/image/upload/v1/x.jpg",
  ]);
});

Deno.test("the README documents every export of every entry point", async () => {
  const readme = await Deno.readTextFile(here("./README.md"));
  const missing: string[] = [];
  for (const entry of ["cachely.mjs", "contentful.mjs", "prismic.mjs", "cachely-tracker.mjs"]) {
    for (const name of Object.keys(await import(here(`./dist/${entry}`)))) {
      if (!new RegExp(`\\b${name}\\b`).test(readme)) missing.push(`${entry}: ${name}`);
    }
  }
  assertEquals(missing, []);
});

Deno.test("package.json: every exports target exists, no runtime dependencies, optional peers", async () => {
  const pkg = JSON.parse(await Deno.readTextFile(here("./dist/package.json")));
  assertEquals(pkg.dependencies, undefined);
  assertEquals(Object.keys(pkg.peerDependencies).sort(), ["@prismicio/client", "contentful"]);
  for (const p of Object.keys(pkg.peerDependencies)) {
    assertEquals(pkg.peerDependenciesMeta[p], { optional: true });
  }
  const targets = Object.values(pkg.exports).flatMap((v) =>
    typeof v === "string" ? [v] : Object.values(v as Record<string, string>)
  );
  for (const t of [...targets, pkg.types, pkg.bin.cachely]) {
    assert((await Deno.stat(here(`./dist/${t}`)).catch(() => null))?.isFile, `missing: ${t}`);
  }
  // Types of the main entry name the new exports.
  const dts = await Deno.readTextFile(here("./dist/types/mod.d.ts"));
  for (const n of ["createCachelyFetch", "createGenericProvider", "providerRegistry"]) {
    assert(dts.includes(n), n);
  }
});
