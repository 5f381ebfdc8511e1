/**
 * `deno task sdk:pack`: builds sdk/dist (sdk/build.ts) and packs it with npm into
 * `sdk/cachely-sdk-<version>.tgz`, the installable form while there is no registry release:
 * `npm install ./cachely-sdk-<version>.tgz` (Node) or `deno add npm:@cachely/sdk@file:…`.
 * Prints the tarball's path.
 */
import { buildSdk } from "./build.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/** Writes dist and packs it; returns the tarball's absolute path. */
export async function packSdk(): Promise<string> {
  for (const [path, text] of await buildSdk()) {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text, {
      mode: path.endsWith("bin/cachely.mjs") ? 0o755 : 0o644,
    });
  }
  const out = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", here("./")],
    cwd: here("./dist/"),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`npm pack failed: ${new TextDecoder().decode(out.stderr)}`);
  const name = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
  return here(`./${name}`);
}

if (import.meta.main) console.log(await packSdk());
