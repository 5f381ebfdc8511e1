import { assert, assertEquals } from "../tests/assert.ts";
import { buildSdk } from "./build.ts";
import { VERSION } from "./mod.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;

Deno.test("sdk/dist (npm form) is up to date with the sources: run deno run -A sdk/build.ts", async () => {
  for (const [path, text] of await buildSdk()) {
    assertEquals(await Deno.readTextFile(path).catch(() => ""), text, `stale: ${path}`);
  }
});

Deno.test("VERSION, jsr.json and the npm package.json agree on 0.13.0", async () => {
  const jsr = JSON.parse(await Deno.readTextFile(here("./jsr.json")));
  const pkg = JSON.parse(await Deno.readTextFile(here("./dist/package.json")));
  assertEquals([VERSION, jsr.version, pkg.version], ["0.13.0", "0.13.0", "0.13.0"]);
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
    "0.13.0",
    "https://t.example/image/upload/v1/x.jpg",
    "https://t.example/demo/image/upload/v1/x.jpg",
  ]);
});
