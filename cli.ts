/**
 * The Cachely CLI (`deno task cli`): talks to any instance over the JSON API with a
 * personal access token, plus local operator commands (migrate, sync, admin grant).
 * The commands live in cli/ (one file per group); this file only wires Deno's I/O.
 */
import { runCli } from "./cli/main.ts";
import { denoIo } from "./cli/io.ts";

if (import.meta.main) {
  Deno.exit(await runCli(Deno.args, denoIo()));
}
