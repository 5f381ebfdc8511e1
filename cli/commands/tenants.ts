/** tenants list|create|show|delete. */
import { CliError, UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, keyValues, table } from "../command.ts";
// Dependency-free (no server modules), so `--help` still touches nothing on disk.
import { fieldFlag, PROVIDER_FIELDS, PROVIDER_KINDS } from "../../sdk/providers.ts";

type TenantView = { key: string; value: Record<string, unknown> };

const list: Command = {
  path: ["tenants", "list"],
  summary: "list the tenants you can see",
  async run(ctx) {
    const r = await (await ctx.api()).get<{ total: number; tenants: TenantView[] }>(
      "/api/tenants",
    );
    ctx.print(
      r,
      () => table(r.tenants.map((t) => t.value), ["slug", "cms", "role", "proxyBase"]),
    );
  },
};

/** --flag -> create-body field, and how to read its value. */
const CREATE_FIELDS: Record<string, [string, "string" | "number" | "boolean"]> = {
  "cloud-name": ["cloudName", "string"],
  "api-origin": ["apiOrigin", "string"],
  "api-auth-mode": ["apiAuthMode", "string"],
  "api-auth-header": ["apiAuthHeader", "string"],
  "website-domain": ["websiteDomain", "string"],
  "website-origin": ["websiteOrigin", "string"],
  "cache-ttl": ["cacheTTL", "number"],
  "asset-cache-ttl": ["assetCacheTTL", "number"],
  // Every kind's identifier fields (cloud-name above: a tenant column), in kebab case.
  ...Object.fromEntries(
    Object.values(PROVIDER_FIELDS).flat().filter((f) => f !== "cloudName")
      .map((f) => [fieldFlag(f), [f, "string"] as [string, "string"]]),
  ),
  "preview-param": ["previewParam", "string"],
};

const create: Command = {
  path: ["tenants", "create"],
  args: "<slug>",
  minArgs: 1,
  summary: "create a tenant",
  details: `The upstream token is not an option (it would land in shell history): set it
afterwards with \`token set <slug>\`, which reads it from stdin.`,
  flags: {
    cms: "string",
    ...Object.fromEntries(Object.keys(CREATE_FIELDS).map((k) => [k, "string" as const])),
  },
  flagHelp: {
    cms: `CMS kind: ${PROVIDER_KINDS.join(", ")}`,
    "cloud-name": "cloud name (cloudinary)",
    "space-id": "Contentful space ID; likewise --repository (prismic), --project-id and\n" +
      "                  --dataset (sanity), --store-domain (shopify), --imgix-domain, --region\n" +
      "                  (storyblok), --origin-url and --video-origin (generic)",
    "cache-ttl": "API cache TTL in seconds",
  },
  async run(ctx) {
    const cms = ctx.flags.cms;
    if (typeof cms !== "string") throw new UsageError("Missing --cms");
    const body: Record<string, unknown> = { slug: ctx.args[0], cms };
    for (const [flag, [field, kind]] of Object.entries(CREATE_FIELDS)) {
      const v = ctx.flags[flag];
      if (typeof v === "string") body[field] = coerce(flag, v, kind);
    }
    const r = await (await ctx.api()).post<{ key: string; proxyBase: string }>(
      "/api/tenants",
      body,
    );
    ctx.print(r, () => `Created ${r.key}: ${r.proxyBase}`);
  },
};

export function coerce(name: string, v: string, kind: "string" | "number" | "boolean"): unknown {
  if (v === "null") return null;
  if (kind === "number") {
    const n = Number(v);
    if (!/^-?\d+(\.\d+)?$/.test(v) || !Number.isFinite(n)) {
      throw new UsageError(`Invalid ${name}: must be a number`);
    }
    return n;
  }
  if (kind === "boolean") {
    if (v !== "true" && v !== "false") {
      throw new UsageError(`Invalid ${name}: must be true or false`);
    }
    return v === "true";
  }
  return v;
}

const show: Command = {
  path: ["tenants", "show"],
  args: "<slug>",
  minArgs: 1,
  summary: "show a tenant's settings",
  async run(ctx) {
    const r = await (await ctx.api()).get<TenantView>(`/api/tenants/${seg(ctx.args[0])}`);
    ctx.print(r.value, () => keyValues(r.value));
  },
};

const del: Command = {
  path: ["tenants", "delete"],
  args: "<slug>",
  minArgs: 1,
  summary: "delete a tenant (owner only)",
  details: "Asks to type the slug again; --yes skips that (needed without a terminal).",
  flags: { yes: "bool" },
  flagHelp: { yes: "do not ask for confirmation" },
  async run(ctx) {
    const slug = ctx.args[0];
    if (!ctx.flags.yes) {
      if (!ctx.io.stdinIsTerminal()) {
        throw new UsageError("Refusing to delete without confirmation: add --yes");
      }
      const typed = (await ctx.io.prompt(`Type ${slug} to delete it for good: `)).trim();
      if (typed !== slug) throw new CliError("Not deleted: the slug did not match");
    }
    const r = await (await ctx.api()).delete<{ ok: boolean; key: string }>(
      `/api/tenants/${seg(slug)}`,
    );
    ctx.print(r, () => `Deleted ${r.key}`);
  },
};

export const tenantCommands: Command[] = [list, create, show, del];
