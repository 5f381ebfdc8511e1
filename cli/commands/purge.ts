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

const TARGETS = ["urls", "prefixes", "tags"];

const purgeTargets: Command = {
  path: ["purge-by"],
  args: "<slug> urls|prefixes|tags <entry>...",
  minArgs: 3,
  maxArgs: 1002,
  summary: "purge cached URLs (or paths), path prefixes or cache tags, nothing else",
  async run(ctx) {
    const [slug, field, ...entries] = ctx.args;
    if (!TARGETS.includes(field)) {
      throw new UsageError(`Invalid target: ${field} (one of ${TARGETS.join(", ")})`);
    }
    const r = await (await ctx.api()).post<{ purged: Record<string, unknown> }>(
      `/api/tenants/${seg(slug)}/purge`,
      { [field]: entries },
    );
    ctx.print(r, () => `Purged ${entries.length} ${field} for ${slug}\n${keyValues(r.purged)}`);
  },
};

export const cacheCommands: Command[] = [purge, purgeTargets];
