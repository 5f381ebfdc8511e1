/**
 * The start path installs what serving needs only. Deno installs every package of the config's
 * lockfile at the first run (`deno task` too, before any task), so deno.json, the config Deno
 * and Deno Deploy find by default, holds the serving packages only (its lockfile deno.lock);
 * test, build-tool and dev packages (typescript, playwright-core, axe-core, esbuild, the CMS
 * clients the SDK tests use) live in deno.dev.json (lockfile deno.dev.lock), which the test,
 * check, bench and sdk:pack tasks name. Figures in docs/operations.md.
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

Deno.test("start, dev, build and migrate run with deno.json; the dev tasks name deno.dev.json", async () => {
  const { tasks } = await json("deno.json");
  for (const name of ["start", "dev", "build", "migrate", "cli"]) {
    assert(!(tasks[name] as string).includes("--config"), `${name}: ${tasks[name]}`);
  }
  for (const name of ["test", "check", "bench", "sdk:pack"]) {
    const runs = (tasks[name] as string).split("&&").filter((c) =>
      /deno (run|test|check|fmt|lint)/.test(c)
    );
    assert(runs.length > 0, name);
    for (const c of runs) assert(c.includes("--config deno.dev.json"), `${name}: ${c}`);
  }
  // `deno task` installs every package of its config first: the README's command is this one.
  const readme = await Deno.readTextFile(new URL("README.md", root));
  assert(readme.includes("npx -y deno@2.9.6 task start"), "README");
});

Deno.test("the serving import map is deno.dev.json's, less what serving does not load", async () => {
  const full = await json("deno.dev.json");
  const serve = await json("deno.json");
  for (const [k, v] of Object.entries(serve.imports as Record<string, string>)) {
    assertEquals(v, full.imports[k], `deno.json imports ${k}`);
  }
  for (const dev of DEV_ONLY) assert(!(dev in serve.imports), `${dev} in deno.json`);
  assert(serve.lock === undefined, "deno.json uses deno.lock");
  assertEquals(full.lock, { path: "./deno.dev.lock" });
  for (const key of ["unstable", "nodeModulesDir", "compilerOptions", "fmt", "lint", "test"]) {
    assertEquals(serve[key], full[key], key);
  }
});

Deno.test("the serving lockfile holds no test, build or dev package", async () => {
  const lock = await json("deno.lock");
  const names = Object.keys(lock.npm).map((k) => k.slice(0, k.indexOf("@", 1)));
  for (const dev of DEV_ONLY) assert(!names.includes(dev), `${dev} in deno.lock`);
  assert(names.includes("hono") && names.includes("@electric-sql/pglite"), names.join(" "));
});

// Deno 2.5 fetches @types/node for `deno info`, which this check must not depend on.
const GRAPH_CHECK = !Deno.version.deno.startsWith("2.5.");
if (!GRAPH_CHECK) {
  console.log("serve_config_test: graph check skipped on Deno 2.5 (needs @types/node)");
}

Deno.test({
  name: "every entry point of the start path resolves with deno.json and its frozen lock",
  ignore: !GRAPH_CHECK,
  async fn() {
    for (const entry of ["main.ts", "islands/client.tsx", "lib/db/migrate_main.ts"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--frozen", "--config", "deno.json", "--json", entry],
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
