/** config get|set: a tenant's settings, and token set (the upstream API token, from stdin). */
import { CliError, UsageError } from "../args.ts";
import { seg } from "../api.ts";
import { type Command, keyValues } from "../command.ts";
// Dependency-free (no server modules), so `--help` still touches nothing on disk.
import { PROVIDER_FIELDS } from "../../sdk/providers.ts";

/**
 * Keys whose values are always strings (null clears them). Any other key's value is
 * read as JSON when it parses (numbers, true/false, lists such as ["image/*"]) and as
 * a string otherwise; the server validates every key and names the one it rejects.
 */
const STRING_KEYS = new Set([
  "websiteDomain",
  "websiteOrigin",
  "apiOrigin",
  "apiAuthMode",
  "apiAuthHeader",
  "apiTokenHeader",
  "previewParam",
  "previewBypassParam",
  ...Object.values(PROVIDER_FIELDS).flat(),
]);

function settingValue(key: string, raw: string): unknown {
  if (raw === "null") return null;
  if (STRING_KEYS.has(key)) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const get: Command = {
  path: ["config", "get"],
  args: "<slug> [key]",
  minArgs: 1,
  maxArgs: 2,
  summary: "print a tenant's settings, or one of them",
  async run(ctx) {
    const [slug, key] = ctx.args;
    const r = await (await ctx.api()).get<{ value: Record<string, unknown> }>(
      `/api/tenants/${seg(slug)}`,
    );
    if (key === undefined) return ctx.print(r.value, () => keyValues(r.value));
    if (!(key in r.value)) {
      throw new CliError(`Unknown key: ${key} (one of ${Object.keys(r.value).join(", ")})`);
    }
    const v = r.value[key];
    ctx.print({ [key]: v }, () => (v === null ? "" : String(v)));
  },
};

const set: Command = {
  path: ["config", "set"],
  args: "<slug> <key>=<value>...",
  minArgs: 2,
  maxArgs: 20,
  summary: "change tenant settings",
  details: `Keys are the tenant's settings (see \`config get <slug>\`), e.g. cacheTTL=120,
siteProxy=false, spaceId=abc123xyz, allowedTypes='["image/*","application/pdf"]'.
Values are JSON when they parse, else strings; null clears a setting. The server
checks every key. The upstream token is not a setting: use \`token set <slug>\`.`,
  async run(ctx) {
    const [slug, ...pairs] = ctx.args;
    const body: Record<string, unknown> = {};
    for (const p of pairs) {
      const i = p.indexOf("=");
      if (i <= 0) throw new UsageError(`Invalid setting: ${p} (expected key=value)`);
      const key = p.slice(0, i);
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new UsageError(`Invalid key: ${key}`);
      if (key === "token") {
        throw new UsageError("The token is not a setting: use `token set <slug>` (stdin)");
      }
      body[key] = settingValue(key, p.slice(i + 1));
    }
    const r = await (await ctx.api()).put<{ value: Record<string, unknown> }>(
      `/api/tenants/${seg(slug)}`,
      body,
    );
    const changed = Object.fromEntries(Object.keys(body).map((k) => [k, r.value[k]]));
    ctx.print(r.value, () => keyValues(changed));
  },
};

const tokenSet: Command = {
  path: ["token", "set"],
  args: "<slug>",
  minArgs: 1,
  summary: "set the tenant's upstream API token, read from stdin",
  details: `The secret is read from stdin (asked without echo on a terminal), never from an
argument, so it stays out of shell history and process lists:
  printf %s "$CMS_TOKEN" | deno task cli token set <slug>`,
  async run(ctx) {
    const secret = ctx.io.stdinIsTerminal()
      ? await ctx.io.prompt("Token: ", true)
      : (await ctx.io.readStdin()).replace(/\r?\n$/, "");
    if (!secret) throw new CliError("No token on stdin");
    const r = await (await ctx.api()).put<Record<string, unknown>>(
      `/api/tenants/${seg(ctx.args[0])}/api-token`,
      { token: secret },
    );
    ctx.print(r, () => `Token set for ${ctx.args[0]}`);
  },
};

export const configCommands: Command[] = [get, set, tokenSet];
