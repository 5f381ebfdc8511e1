/** rules list|activate|pause: AI transform rules. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, table } from "../command.ts";

type Rule = Record<string, unknown> & { id: number; status: string };

function ruleId(v: string): number {
  if (!/^[1-9]\d{0,9}$/.test(v)) throw new UsageError(`Invalid rule id: ${v}`);
  return Number(v);
}

const list: Command = {
  path: ["rules", "list"],
  args: "<slug>",
  minArgs: 1,
  summary: "list a tenant's AI transform rules",
  async run(ctx) {
    const r = await (await ctx.api()).get<{ rules: Rule[] }>(
      `/api/tenants/${seg(ctx.args[0])}/ai-transform/rules`,
    );
    ctx.print(
      r,
      () =>
        table(r.rules, ["id", "status", "profile", "presetId", "fieldSelector", "routePattern"]),
    );
  },
};

function statusCommand(action: "activate" | "pause", summary: string): Command {
  return {
    path: ["rules", action],
    args: "<slug> <rule-id>",
    minArgs: 2,
    summary,
    async run(ctx) {
      const id = ruleId(ctx.args[1]);
      const r = await (await ctx.api()).post<Rule>(
        `/api/tenants/${seg(ctx.args[0])}/ai-transform/rules/${id}/${action}`,
      );
      ctx.print(r, () => `Rule ${r.id} is now ${r.status}`);
    },
  };
}

export const ruleCommands: Command[] = [
  list,
  statusCommand("activate", "activate a rule (runs on live traffic)"),
  statusCommand("pause", "pause a rule (runs nowhere)"),
];
