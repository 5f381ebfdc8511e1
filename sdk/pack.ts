/**
 * `deno task sdk:pack`: builds sdk/dist (sdk/build.ts) and packs it with npm into
 * `sdk/cachely-sdk-<version>.tgz`, the installable form while there is no registry release:
 * `npm install ./cachely-sdk-<version>.tgz` (Node) or `deno add npm:@cachely/sdk@file:...`.
 * Prints the tarball's path.
 */
import { buildSdk } from "./build.ts";

const here = (p: string) => new URL(p, import.meta.url).pathname;

/**
 * Writes dist and packs it into `destination` (sdk/ by default); returns the tarball's
 * absolute path. Tests run side by side, so each dist file is replaced by a rename (a
 * reader sees the old or the new file, never a truncated one) and each caller may pack
 * into a directory of its own.
 */
export async function packSdk(destination = here("./")): Promise<string> {
  for (const [path, text] of await buildSdk()) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    await Deno.mkdir(dir, { recursive: true });
    // Beside dist, not in it: npm pack takes every file in dist.
    const temp = await Deno.makeTempFile({ dir: here("./"), prefix: ".dist-" });
    await Deno.writeTextFile(temp, text);
    await Deno.chmod(temp, path.endsWith("bin/cachely.mjs") ? 0o755 : 0o644);
    await Deno.rename(temp, path);
  }
  const out = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", destination],
    cwd: here("./dist/"),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`npm pack failed: ${new TextDecoder().decode(out.stderr)}`);
  const name = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
  return `${destination.replace(/\/$/, "")}/${name}`;
}

if (import.meta.main) console.log(await packSdk());
