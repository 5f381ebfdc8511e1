/** usage <slug> [--month YYYY-MM]. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, table } from "../command.ts";
import { formatBytes } from "../../lib/dashboard/format.ts";

type PeriodUsage = Record<string, unknown> & { period: string };

const usage: Command = {
  path: ["usage"],
  args: "<slug>",
  minArgs: 1,
  summary: "a tenant's requests, bytes (decimal units) and cache hit ratio for a month (UTC)",
  flags: { month: "string" },
  flagHelp: { month: "YYYY-MM (default: the current month)" },
  async run(ctx) {
    const month = ctx.flags.month;
    if (
      month !== undefined && (typeof month !== "string" || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
    ) {
      throw new UsageError(`Invalid --month: ${month} (expected YYYY-MM)`);
    }
    const r = await (await ctx.api()).get<{ current: PeriodUsage; previous: PeriodUsage }>(
      `/api/tenants/${seg(ctx.args[0])}/usage`,
      { period: month as string | undefined },
    );
    // Decimal units, as plans are sold (1 GB = 10^9 bytes); --json keeps the byte count.
    const human = (p: PeriodUsage) => ({ ...p, bytes: formatBytes(Number(p.bytes ?? 0)) });
    ctx.print(r, () =>
      table([human(r.current), human(r.previous)], [
        "period",
        "requests",
        "bytes",
        "hits",
        "misses",
        "errors",
        "cacheHitRatio",
      ]));
  },
};

export const usageCommands: Command[] = [usage];
