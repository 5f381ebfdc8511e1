/**
 * The one command-line parser, for the `cachely` bin of the SDK and the operator CLI (cli/):
 * positionals and `--flag[=value]` / `--flag value`, `-h` for help, `--` ending the options.
 * Runtime-free.
 */

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The flags a command accepts: a bool flag takes no value, a string flag needs one. */
export type FlagSpec = Record<string, "bool" | "string">;

export type Parsed = {
  positionals: string[];
  flags: Record<string, string | boolean>;
};

/** Splits `argv` by `spec`; throws UsageError naming the option for an unknown or malformed one. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
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
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
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
