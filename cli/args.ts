/** Argument parsing for the CLI: positionals and `--flag[=value]` / `--flag value`. */

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure to report as-is: exit code 1. */
export class CliError extends Error {
  override name = "CliError";
}

export type FlagSpec = Record<string, "bool" | "string">;

export type Parsed = {
  positionals: string[];
  flags: Record<string, string | boolean>;
};

/** Flags every command accepts. */
export const COMMON_FLAGS: FlagSpec = { help: "bool", json: "bool" };

export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const all = { ...COMMON_FLAGS, ...spec };
  const positionals: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === "-h") {
      flags.help = true;
      continue;
    }
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq === -1 ? undefined : eq);
    const kind = all[name];
    if (!kind) throw new UsageError(`Unknown option: --${name}`);
    if (kind === "bool") {
      if (eq !== -1) throw new UsageError(`Option --${name} takes no value`);
      flags[name] = true;
    } else if (eq !== -1) {
      flags[name] = a.slice(eq + 1);
    } else {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) {
        throw new UsageError(`Option --${name} needs a value`);
      }
      flags[name] = v;
    }
  }
  return { positionals, flags };
}
