/** Argument parsing for the CLI: the SDK's parser (sdk/args.ts) with the flags every command takes. */
import { type FlagSpec, parseArgs as parseWith, type Parsed, UsageError } from "../sdk/args.ts";

export { type FlagSpec, UsageError };

/** A failure to report as-is: exit code 1. */
export class CliError extends Error {
  override name = "CliError";
}

/** Flags every command accepts. */
export const COMMON_FLAGS: FlagSpec = { help: "bool", json: "bool" };

/** Positionals and flags of a command taking `spec` besides the common flags. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  return parseWith(argv, { ...COMMON_FLAGS, ...spec });
}
