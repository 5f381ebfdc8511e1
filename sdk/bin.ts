#!/usr/bin/env node
/**
 * The `cachely` bin of @cachely/sdk (`npx @cachely/sdk setup`): Node's I/O around
 * setup.ts. Built to dist/bin/cachely.mjs; runs under Node >= 18 and Deno.
 */
import { stat } from "node:fs/promises";
import process from "node:process";
import { createInterface } from "node:readline/promises";
import { runSetup, SETUP_FLAGS } from "./setup.ts";
import { parseArgs } from "./args.ts";
import { projectFiles } from "./setup_fs.ts";
import { VERSION } from "./mod.ts";

const argv = process.argv.slice(2);
// A command line that does not parse is runSetup's to report (with the usage).
const dirFlag = (() => {
  try {
    return parseArgs(argv, SETUP_FLAGS).flags.dir as string | undefined;
  } catch {
    return undefined;
  }
})();
const dir = dirFlag ?? process.cwd();
if (dirFlag !== undefined && !(await stat(dir).then((s) => s.isDirectory(), () => false))) {
  process.stderr.write(`Error: Invalid --dir: ${dir} is not a directory\n`);
  process.exit(2);
}
const rl = process.stdin.isTTY
  ? createInterface({ input: process.stdin, output: process.stderr })
  : null;

const code = await runSetup(argv, {
  out: (t) => process.stdout.write(t + "\n"),
  err: (t) => process.stderr.write(t + "\n"),
  ...await projectFiles(dir),
  interactive: rl !== null,
  ask: (q) => rl!.question(q),
}, VERSION);
rl?.close();
process.exitCode = code;
