/** experiments list|results. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, table } from "../command.ts";

type Experiment = Record<string, unknown> & { id: number; variants?: unknown[] };
type Summary = {
  experimentId: number;
  totalExposures: number;
  totalEvents: number;
  goalEventName: string;
  variants: Record<string, unknown>[];
};

const list: Command = {
  path: ["experiments", "list"],
  args: "<slug>",
  minArgs: 1,
  summary: "list a tenant's experiments",
  async run(ctx) {
    const r = await (await ctx.api()).get<{ experiments: Experiment[] }>(
      `/api/tenants/${seg(ctx.args[0])}/ai-experiments`,
    );
    const rows = r.experiments.map((e) => ({ ...e, variants: e.variants?.length ?? 0 }));
    ctx.print(r, () => table(rows, ["id", "name", "status", "routePattern", "variants"]));
  },
};

const results: Command = {
  path: ["experiments", "results"],
  args: "<slug> <experiment-id>",
  minArgs: 2,
  summary: "exposures, events and conversion rate per variant",
  flags: { goal: "string" },
  flagHelp: { goal: "goal event name (default: the server's)" },
  async run(ctx) {
    const [slug, idText] = ctx.args;
    if (!/^[1-9]\d{0,9}$/.test(idText)) throw new UsageError(`Invalid experiment id: ${idText}`);
    const goal = typeof ctx.flags.goal === "string" ? ctx.flags.goal : undefined;
    const r = await (await ctx.api()).get<Summary>(
      `/api/tenants/${seg(slug)}/ai-experiments/${idText}/exposures`,
      { goal },
    );
    ctx.print(r, () =>
      [
        `experiment ${r.experimentId}: ${r.totalExposures} exposures, ${r.totalEvents} "${r.goalEventName}" events`,
        table(r.variants, [
          "variantKey",
          "label",
          "exposures",
          "actualSplit",
          "expectedSplit",
          "eventCount",
          "conversionRate",
        ]),
      ].join("\n"));
  },
};

export const experimentCommands: Command[] = [list, results];
