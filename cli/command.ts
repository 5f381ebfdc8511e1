/** What a CLI command is, and what it is handed when it runs. */
import type { FlagSpec } from "./args.ts";
import type { ApiClient } from "./api.ts";

export type Env = { get(name: string): string | undefined };

/** The process around a command; tests and the real CLI both use Deno's. */
export type Io = {
  env: Env;
  out(text: string): void;
  err(text: string): void;
  /** All of stdin, as text. */
  readStdin(): Promise<string>;
  stdinIsTerminal(): boolean;
  /** Asks on the terminal; `secret` turns echo off. */
  prompt(question: string, secret?: boolean): Promise<string>;
};

export type Ctx = {
  args: string[];
  flags: Record<string, string | boolean>;
  json: boolean;
  io: Io;
  /** The API client of the logged-in instance (or CACHELY_URL + CACHELY_TOKEN). */
  api(): Promise<ApiClient>;
  /** Prints `data` as JSON with --json, else the human form. */
  print(data: unknown, human: () => string): void;
};

export type Command = {
  /** Words that select it, e.g. ["tenants", "list"]. */
  path: string[];
  /** Positional arguments, for the usage line: "<slug> [api|assets|html|all]". */
  args?: string;
  summary: string;
  /** More help text, printed by --help. */
  details?: string;
  flags?: FlagSpec;
  /** Flag descriptions for --help. */
  flagHelp?: Record<string, string>;
  minArgs?: number;
  maxArgs?: number;
  run(ctx: Ctx): Promise<number | void>;
};

/** Rows as aligned columns (header row first). */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cells = [columns, ...rows.map((r) => columns.map((c) => fmtCell(r[c])))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((v, i) => v.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n");
}

function fmtCell(v: unknown): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** `key: value` lines for one object. */
export function keyValues(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  const w = Math.max(0, ...keys.map((k) => k.length));
  return keys.map((k) => `${(k + ":").padEnd(w + 1)} ${fmtCell(obj[k])}`).join("\n");
}
