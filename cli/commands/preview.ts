/**
 * preview link <slug> [path] [--ttl seconds]: a signed, expiring preview link (editor+);
 * preview rotate <slug>: a new link secret, every earlier link ends (admin+).
 * docs/providers.md "Previews".
 */
import { UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, keyValues } from "../command.ts";

type Link = { url: string; path: string; scope: string; expiresAt: string };

const link: Command = {
  path: ["preview", "link"],
  args: "<slug> [path]",
  minArgs: 1,
  maxArgs: 2,
  summary: "make a preview link for a site or API path (default /~api/; valid 2 h)",
  details:
    "An API path (/~api/\u2026) opens that path and below; a site page opens every API read.\n" +
    "Anyone holding the link sees drafts until it expires: share it with editors only.",
  flags: { ttl: "string" },
  flagHelp: { ttl: "lifetime in seconds (60 to 604800; default 7200)" },
  async run(ctx) {
    const [slug, path = "/~api/"] = ctx.args;
    const body: { path: string; ttlSeconds?: number } = { path };
    if (typeof ctx.flags.ttl === "string") {
      const ttl = Number(ctx.flags.ttl);
      if (!Number.isInteger(ttl)) {
        throw new UsageError(`--ttl must be whole seconds: ${ctx.flags.ttl}`);
      }
      body.ttlSeconds = ttl;
    }
    const r = await (await ctx.api()).post<Link>(`/api/tenants/${seg(slug)}/preview-links`, body);
    ctx.print(r, () => `${r.url}\n${keyValues({ scope: r.scope, expiresAt: r.expiresAt })}`);
  },
};

const rotate: Command = {
  path: ["preview", "rotate"],
  args: "<slug>",
  minArgs: 1,
  maxArgs: 1,
  summary: "replace the preview-link secret: every earlier preview link stops working",
  async run(ctx) {
    const r = await (await ctx.api()).put<{ rotatedAt: string }>(
      `/api/tenants/${seg(ctx.args[0])}/preview-secret`,
    );
    ctx.print(r, () => `Preview links of ${ctx.args[0]} made before ${r.rotatedAt} no longer work`);
  },
};

export const previewCommands: Command[] = [link, rotate];
