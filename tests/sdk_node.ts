/**
 * The packed @cachely/sdk in Node 20: a project with the tarball `deno task sdk:pack` makes
 * unpacked as node_modules/@cachely/sdk, beside the real CMS clients (`deno install`).
 */
import { assert } from "./assert.ts";
import { packSdk } from "../sdk/pack.ts";

/**
 * A Node project with the built package installed as @cachely/sdk and the real CMS
 * clients in node_modules (`deno install` from Deno's npm cache).
 */
export async function nodeProject(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cachely-sdk-node-" });
  const imports = JSON.parse(
    await Deno.readTextFile(new URL("../deno.dev.json", import.meta.url)),
  ).imports as Record<string, string>;
  const version = (name: string) => imports[name].replace(/^npm:.*@/, "");
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({
      name: "sdk-node-test",
      private: true,
      type: "module",
      dependencies: {
        contentful: version("contentful"),
        "@prismicio/client": version("@prismicio/client"),
      },
    }),
  );
  const install = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--quiet"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(install.success, new TextDecoder().decode(install.stderr));
  // The package as users get it today: the tarball `deno task sdk:pack` makes, unpacked
  // where npm puts it (package/ → node_modules/@cachely/sdk).
  const tgz = await packSdk(dir);
  await Deno.mkdir(`${dir}/node_modules/@cachely/sdk`, { recursive: true });
  const untar = await new Deno.Command("tar", {
    args: ["-xzf", tgz, "-C", `${dir}/node_modules/@cachely/sdk`, "--strip-components=1"],
  }).output();
  assert(untar.success, new TextDecoder().decode(untar.stderr));
  return dir;
}

/**
 * Runs an ES module `script` in Node in `project` (env added to the inherited one) and
 * returns the JSON it prints last; a failed run fails with its stderr.
 */
export async function runNode(
  project: string,
  script: string,
  env: Record<string, string> = {},
): Promise<unknown> {
  const file = `${project}/run-${crypto.randomUUID()}.mjs`;
  await Deno.writeTextFile(file, script);
  const run = await new Deno.Command("node", {
    args: [file],
    cwd: project,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(run.stdout);
  assert(run.success, new TextDecoder().decode(run.stderr) + stdout);
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}
