/**
 * The start path installs what serving needs only. Deno installs every package of the config's
 * lockfile at the first run (`deno task` too, before any task), so the README starts with
 * `deno task --config deno.serve.json start`, and start, build, dev and migrate run with
 * deno.serve.json, whose import map and lockfile (deno.serve.lock) hold the serving packages;
 * test, build-tool and dev packages (typescript, playwright-core, axe-core, esbuild, the CMS
 * clients the SDK tests use) stay in deno.json. Figures in docs/operations.md.
 */
import { assert, assertEquals } from "./assert.ts";

const root = new URL("../", import.meta.url);
const json = async (name: string) => JSON.parse(await Deno.readTextFile(new URL(name, root)));

/** Packages serving never loads (checked absent from the serving lockfile). */
const DEV_ONLY = [
  "typescript",
  "playwright-core",
  "axe-core",
  "esbuild",
  "contentful",
  "@prismicio/client",
  "http-cache-semantics",
];

Deno.test("start, dev, build and migrate run with the serving config, from either config", async () => {
  const { tasks } = await json("deno.json");
  const serve = await json("deno.serve.json");
  for (const name of ["start", "dev", "build", "migrate"]) {
    assertEquals(serve.tasks[name], tasks[name], `deno.serve.json task ${name}`);
    const runs = (tasks[name] as string).split("&&").filter((c) =>
      /deno (run|bundle|task)/.test(c)
    );
    assert(runs.length > 0, name);
    for (const c of runs) assert(c.includes("--config deno.serve.json"), `${name}: ${c}`);
  }
  // `deno task` installs every package of its config first: the README starts with this one.
  const readme = await Deno.readTextFile(new URL("README.md", root));
  assert(readme.includes("npx -y deno@2.9.6 task --config deno.serve.json start"), "README");
});

Deno.test("the serving import map is deno.json's, less what serving does not load", async () => {
  const full = (await json("deno.json")).imports as Record<string, string>;
  const serve = await json("deno.serve.json");
  for (const [k, v] of Object.entries(serve.imports as Record<string, string>)) {
    assertEquals(v, full[k], `deno.serve.json imports ${k}`);
  }
  for (const dev of DEV_ONLY) assert(!(dev in serve.imports), `${dev} in deno.serve.json`);
  assertEquals(serve.lock, { path: "./deno.serve.lock" });
  const { unstable, nodeModulesDir, compilerOptions } = await json("deno.json");
  assertEquals(
    { unstable, nodeModulesDir, compilerOptions },
    {
      unstable: serve.unstable,
      nodeModulesDir: serve.nodeModulesDir,
      compilerOptions: serve.compilerOptions,
    },
  );
});

Deno.test("the serving lockfile holds no test, build or dev package", async () => {
  const lock = await json("deno.serve.lock");
  const names = Object.keys(lock.npm).map((k) => k.slice(0, k.indexOf("@", 1)));
  for (const dev of DEV_ONLY) assert(!names.includes(dev), `${dev} in deno.serve.lock`);
  assert(names.includes("hono") && names.includes("@electric-sql/pglite"), names.join(" "));
});

// Deno 2.5 fetches @types/node for `deno info`, which this check must not depend on.
const GRAPH_CHECK = !Deno.version.deno.startsWith("2.5.");
if (!GRAPH_CHECK) {
  console.log("serve_config_test: graph check skipped on Deno 2.5 (needs @types/node)");
}

Deno.test({
  name: "every entry point of the start path resolves with the serving config and its frozen lock",
  ignore: !GRAPH_CHECK,
  async fn() {
    for (const entry of ["main.ts", "islands/client.tsx", "lib/db/migrate_main.ts"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--frozen", "--config", "deno.serve.json", "--json", entry],
        cwd: root,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const err = new TextDecoder().decode(out.stderr);
      assert(out.success, `${entry}: ${err.slice(-2000)}`);
      const info = JSON.parse(new TextDecoder().decode(out.stdout));
      const broken = info.modules.filter((m: { error?: string }) => m.error);
      assertEquals(broken, [], entry);
    }
  },
});
