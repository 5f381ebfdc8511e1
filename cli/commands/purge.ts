/** purge <slug> [api|assets|html|all]: bump cache versions so older entries are never served. */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, keyValues } from "../command.ts";

const TYPES = ["api", "assets", "html", "all"];

const purge: Command = {
  path: ["purge"],
  args: "<slug> [api|assets|html|all]",
  minArgs: 1,
  maxArgs: 2,
  summary: "purge a tenant's cache (default all)",
  async run(ctx) {
    const [slug, type = "all"] = ctx.args;
    if (!TYPES.includes(type)) {
      throw new UsageError(`Invalid cache type: ${type} (one of ${TYPES.join(", ")})`);
    }
    const r = await (await ctx.api()).post<{ versions: Record<string, unknown> }>(
      `/api/tenants/${seg(slug)}/refresh-cache`,
      { type },
    );
    ctx.print(r, () => `Purged ${type} for ${slug}\n${keyValues(r.versions)}`);
  },
};

export const cacheCommands: Command[] = [purge];
