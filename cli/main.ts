/**
 * The CLI runner: picks the command from the leading words, parses its flags, runs
 * it, and maps failures to exit codes (0 ok, 1 failed, 2 usage). `--help` only
 * prints: no command runs, nothing is read from or written to disk.
 */
import { COMMON_FLAGS, parseArgs, UsageError } from "./args.ts";
import { ApiFailure } from "./api.ts";
import { clientFor } from "./api.ts";
import { resolveCredentials } from "./credentials.ts";
import type { Command, Ctx, Io } from "./command.ts";
import { authCommands } from "./commands/auth.ts";
import { tenantCommands } from "./commands/tenants.ts";
import { configCommands } from "./commands/config.ts";
import { cacheCommands } from "./commands/purge.ts";
import { ruleCommands } from "./commands/rules.ts";
import { experimentCommands } from "./commands/experiments.ts";
import { usageCommands } from "./commands/usage.ts";
import { logCommands } from "./commands/logs.ts";
import { domainCommands } from "./commands/domains.ts";
import { localCommands } from "./commands/local.ts";
import { previewCommands } from "./commands/preview.ts";

export const COMMANDS: Command[] = [
  ...authCommands,
  ...tenantCommands,
  ...configCommands,
  ...cacheCommands,
  ...ruleCommands,
  ...experimentCommands,
  ...usageCommands,
  ...logCommands,
  ...domainCommands,
  ...previewCommands,
  ...localCommands,
];

const PROG = "deno task cli";

function usageLine(c: Command): string {
  return [PROG, ...c.path, c.args ?? ""].join(" ").trimEnd();
}

export function overview(): string {
  const w = Math.max(...COMMANDS.map((c) => (c.path.join(" ") + " " + (c.args ?? "")).length));
  const lines = COMMANDS.map((c) =>
    `  ${(c.path.join(" ") + " " + (c.args ?? "")).padEnd(w)}  ${c.summary}`
  );
  return `Cachely command-line tool

usage: ${PROG} <command> [arguments] [--json] [--help]

commands:
${lines.join("\n")}

Every command takes --help and --json. Exit codes: 0 ok, 1 failed, 2 usage error.
Remote commands use the login stored by \`login\` (in the user's config directory), or
CACHELY_URL and CACHELY_TOKEN (a personal access token) when both are set.`;
}

export function commandHelp(c: Command): string {
  const flags = Object.entries({ ...c.flags, ...COMMON_FLAGS }).map(([name, kind]) => {
    const arg = kind === "string" ? ` <value>` : "";
    const help = c.flagHelp?.[name] ??
      (name === "json" ? "print JSON" : name === "help" ? "show this help" : "");
    return `  --${name}${arg}${help ? `  ${help}` : ""}`;
  });
  return [
    `usage: ${usageLine(c)} [options]`,
    "",
    c.summary,
    ...(c.details ? ["", c.details] : []),
    "",
    "options:",
    ...flags,
  ].join("\n");
}

/** The command whose path is the longest prefix of argv. */
function findCommand(argv: string[]): { cmd?: Command; group: Command[]; rest: string[] } {
  const words = argv.filter((a) => !a.startsWith("-"));
  let best: Command | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((p, i) => words[i] === p) && (!best || c.path.length > best.path.length)) {
      best = c;
    }
  }
  if (best) {
    // Drop the command words (the first occurrences, in order) from argv.
    const rest = [...argv];
    for (const p of best.path) rest.splice(rest.indexOf(p), 1);
    return { cmd: best, group: [], rest };
  }
  const group = COMMANDS.filter((c) => c.path[0] === words[0]);
  return { group, rest: argv };
}

export async function runCli(argv: string[], io: Io): Promise<number> {
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const json = argv.includes("--json");
  if (argv.length === 0 || argv[0] === "help" || (argv[0]?.startsWith("-") && wantsHelp)) {
    if (argv.length === 0) {
      io.err(overview());
      return 2;
    }
    io.out(overview());
    return 0;
  }
  const { cmd, group, rest } = findCommand(argv);
  if (!cmd) {
    if (group.length > 0) {
      const text = `usage:\n${group.map((c) => `  ${usageLine(c)}  ${c.summary}`).join("\n")}`;
      if (wantsHelp) {
        io.out(text);
        return 0;
      }
      const sub = argv.filter((a) => !a.startsWith("-"))[1];
      io.err(`${sub ? `Unknown command: ${argv[0]} ${sub}` : `Missing subcommand`}\n${text}`);
      return 2;
    }
    io.err(`Unknown command: ${argv[0]}\n\n${overview()}`);
    return 2;
  }
  if (wantsHelp) {
    io.out(commandHelp(cmd));
    return 0;
  }
  try {
    const parsed = parseArgs(rest, cmd.flags ?? {});
    const n = parsed.positionals.length;
    if (n < (cmd.minArgs ?? 0)) throw new UsageError(`Missing arguments: ${cmd.args}`);
    if (n > (cmd.maxArgs ?? cmd.minArgs ?? 0)) {
      throw new UsageError(`Unexpected argument: ${parsed.positionals[cmd.maxArgs ?? 0]}`);
    }
    const ctx: Ctx = {
      args: parsed.positionals,
      flags: parsed.flags,
      json,
      io,
      api: async () => clientFor(await resolveCredentials(io.env)),
      print(data, human) {
        io.out(json ? JSON.stringify(data, null, 2) : human());
      },
    };
    return (await cmd.run(ctx)) ?? 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${e.message}\nusage: ${usageLine(cmd)} [options] (see --help)`);
      return 2;
    }
    const message = e instanceof Error ? e.message : String(e);
    if (json) {
      const error = e instanceof ApiFailure
        ? { code: e.code, status: e.status, message, ...(e.details ? { details: e.details } : {}) }
        : { code: "failed", message };
      io.err(JSON.stringify({ error }));
    } else {
      const status = e instanceof ApiFailure ? ` (HTTP ${e.status})` : "";
      io.err(`Error: ${message}${status}`);
    }
    if (!(e instanceof Error) || !["CliError", "ApiFailure", "ConfigError"].includes(e.name)) {
      // Unexpected failures keep their stack for a bug report.
      if (e instanceof Error && e.stack) io.err(e.stack);
    }
    return 1;
  }
}
