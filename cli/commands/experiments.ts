/** experiments list|results. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, table } from "../command.ts";

type Experiment = Record<string, unknown> & {
  id: number;
  variants?: unknown[];
  guardrails?: { goal?: string } | null;
};
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

/** A rate the API gives in percent, as a fixed two-decimal percentage. */
const pct = (v: unknown) => typeof v === "number" ? `${v.toFixed(2)} %` : "-";

const results: Command = {
  path: ["experiments", "results"],
  args: "<slug> <experiment-id>",
  minArgs: 2,
  summary: "exposures, events and conversion rate per variant",
  flags: { goal: "string" },
  flagHelp: { goal: "goal event name (default: the experiment's own goal, if it names one)" },
  async run(ctx) {
    const [slug, idText] = ctx.args;
    if (!/^[1-9]\d{0,9}$/.test(idText)) throw new UsageError(`Invalid experiment id: ${idText}`);
    const api = await ctx.api();
    const base = `/api/tenants/${seg(slug)}/ai-experiments/${idText}`;
    // No --goal: the experiment's own goal (its guardrails'), not the server's default event.
    let goal = typeof ctx.flags.goal === "string" ? ctx.flags.goal : undefined;
    if (goal === undefined) goal = (await api.get<Experiment>(base)).guardrails?.goal;
    const r = await api.get<Summary>(`${base}/exposures`, { goal });
    const rows = r.variants.map((v) => ({
      ...v,
      actualSplit: pct(v.actualSplit),
      expectedSplit: pct(v.expectedSplit),
      conversionRate: pct(v.conversionRate),
    }));
    const split = ["variantKey", "label", "exposures", "actualSplit", "expectedSplit"];
    ctx.print(r, () =>
      goal === undefined
        ? [
          `experiment ${r.experimentId}: ${r.totalExposures} exposures; it names no goal event: pass --goal <event> for conversions`,
          table(rows, split),
        ].join("\n")
        : [
          `experiment ${r.experimentId}: ${r.totalExposures} exposures, ${r.totalEvents} "${r.goalEventName}" events`,
          table(rows, [...split, "eventCount", "conversionRate"]),
        ].join("\n"));
  },
};

export const experimentCommands: Command[] = [list, results];
