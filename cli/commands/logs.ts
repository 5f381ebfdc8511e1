/** logs <slug> [--follow]: the tenant's sampled request log, newest last; --follow tails it. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import type { Command, Ctx } from "../command.ts";

type Entry = {
  id: number;
  ts: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  cache: string | null;
  durationMs: number | null;
};

function line(e: Entry): string {
  return `${e.ts}  ${e.status}  ${(e.cache ?? "-").padEnd(6)} ${e.method} ${e.path}  ${e.bytes}B ${
    e.durationMs ?? "-"
  }ms`;
}

function emit(ctx: Ctx, entries: Entry[]) {
  // JSON lines when tailing, so scripts can read entries as they come.
  for (const e of entries) ctx.io.out(ctx.json ? JSON.stringify(e) : line(e));
}

function positiveInt(name: string, v: unknown, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== "string" || !/^\d+$/.test(v) || n < 1 || n > max) {
    throw new UsageError(`Invalid --${name}: must be an integer from 1 to ${max}`);
  }
  return n;
}

const logs: Command = {
  path: ["logs"],
  args: "<slug>",
  minArgs: 1,
  summary: "show recent request logs; --follow keeps printing new ones",
  details: `With --json, prints one JSON object per line (newest last).
Logs are sampled and arrive in batches, so a tail trails traffic by the flush interval.`,
  flags: { follow: "bool", limit: "string", interval: "string" },
  flagHelp: {
    follow: "keep polling and print new entries until interrupted",
    limit: "entries shown first (1-200, default 20)",
    interval: "seconds between polls with --follow (default 2)",
  },
  async run(ctx) {
    const limit = positiveInt("limit", ctx.flags.limit, 200, 20);
    const intervalS = positiveInt("interval", ctx.flags.interval, 3600, 2);
    const api = await ctx.api();
    const path = `/api/tenants/${seg(ctx.args[0])}/logs`;
    const first = await api.get<{ entries: Entry[] }>(path, { limit });
    const shown = first.entries.slice().reverse();
    emit(ctx, shown);
    if (!ctx.flags.follow) return;
    let lastId = Math.max(0, ...shown.map((e) => e.id));
    let stop = false;
    const onSignal = () => (stop = true);
    try {
      Deno.addSignalListener("SIGINT", onSignal);
    } catch { /* not supported here */ }
    while (!stop) {
      await new Promise((r) => setTimeout(r, intervalS * 1000));
      if (stop) break;
      // Ids grow with insertion; anything above the last printed id is new.
      const r = await api.get<{ entries: Entry[] }>(path, { limit: 200 });
      const fresh = r.entries.filter((e) => e.id > lastId).reverse();
      emit(ctx, fresh);
      if (fresh.length) lastId = Math.max(lastId, ...fresh.map((e) => e.id));
    }
  },
};

export const logCommands: Command[] = [logs];
