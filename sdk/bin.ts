#!/usr/bin/env node
/**
 * The `cachely` bin of @cachely/sdk (`npx @cachely/sdk setup`): Node's I/O around
 * setup.ts. Built to dist/bin/cachely.mjs; runs under Node ≥ 18 and Deno.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline/promises";
import { runSetup } from "./setup.ts";
import { VERSION } from "./mod.ts";

const argv = process.argv.slice(2);
const dirFlag = argv.findIndex((a) => a === "--dir" || a.startsWith("--dir="));
let dir = process.cwd();
if (dirFlag !== -1) {
  const a = argv[dirFlag];
  dir = a.includes("=") ? a.slice(6) : argv[dirFlag + 1] ?? dir;
}
if (dirFlag !== -1 && !(await stat(dir).then((s) => s.isDirectory(), () => false))) {
  process.stderr.write(`Error: Invalid --dir: ${dir} is not a directory\n`);
  process.exit(2);
}
const rl = process.stdin.isTTY
  ? createInterface({ input: process.stdin, output: process.stderr })
  : null;

const code = await runSetup(argv, {
  out: (t) => process.stdout.write(t + "\n"),
  err: (t) => process.stderr.write(t + "\n"),
  readFile: (name) => readFile(join(dir, name), "utf8").catch(() => null),
  writeFile: async (name, text) => {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  },
  isDir: (name) => stat(join(dir, name)).then((s) => s.isDirectory(), () => false),
  interactive: rl !== null,
  ask: (q) => rl!.question(q),
}, VERSION);
rl?.close();
process.exitCode = code;
