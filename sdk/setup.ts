/**
 * `cachely setup` and `cachely init` (the package's bin): detect the framework and CMS
 * package from package.json, ask for (or take as flags) the tenant and the provider's
 * identifier, write cachely.config.json; `setup` also prints the exact code and env
 * changes. Exit codes: 0 ok, 1 failed, 2 usage. Runtime-free: bin.ts supplies the I/O.
 */
import { type ProviderInput, resolveProvider } from "./provider_registry.ts";
import {
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
} from "./providers.ts";
import { resolveTenantOrigin } from "./tenant_origin.ts";
import { detectProject, type Framework, type PackageJson } from "./setup_detect.ts";
import { type CachelyConfigFile, setupChanges } from "./setup_code.ts";

export const CONFIG_FILE = "cachely.config.json";

export type SetupIo = {
  out(text: string): void;
  err(text: string): void;
  /** The file's text, or null when it does not exist. */
  readFile(name: string): Promise<string | null>;
  writeFile(name: string, text: string): Promise<void>;
  /** True when questions can be asked (a terminal and no --yes). */
  interactive: boolean;
  ask(question: string): Promise<string>;
};

class UsageError extends Error {}

/** --flag → provider config field. */
const ID_FLAGS: Record<string, keyof ProviderConfig> = {
  "space-id": "spaceId",
  repository: "repository",
  "project-id": "projectId",
  dataset: "dataset",
  "store-domain": "storeDomain",
  "cloud-name": "cloudName",
  "imgix-domain": "imgixDomain",
  region: "region",
  "origin-url": "originUrl",
  "video-origin": "videoOrigin",
};
const STRING_FLAGS = new Set([
  "tenant",
  "custom-domain",
  "proxy-domain",
  "provider",
  "framework",
  "api-origin",
  "dir",
  ...Object.keys(ID_FLAGS),
]);
const BOOL_FLAGS = new Set(["yes", "force", "json", "help"]);

export const HELP = `usage: cachely <setup|init> [options]

  setup   detect framework and CMS from package.json, write ${CONFIG_FILE},
          and print the code and env changes to make
  init    write ${CONFIG_FILE} only

options:
  --tenant <slug>           tenant slug (asked when missing on a terminal)
  --custom-domain <host>    a verified custom domain instead of <slug>.<proxy domain>
  --proxy-domain <domain>   your Cachely instance's proxy domain (default cachely.app)
  --provider <kind>         ${PROVIDER_KINDS.join(", ")} (default: detected)
  --space-id, --repository, --project-id, --dataset, --store-domain, --cloud-name,
  --imgix-domain, --region, --origin-url, --video-origin
                            the provider's identifier
  --api-origin <url>        the tenant's API origin when it is not the derived one
  --framework <name>        override the detected framework
  --yes                     never ask; fail on what is missing (CI)
  --force                   overwrite an existing ${CONFIG_FILE}
  --json                    print the result as JSON
  --help                    this help

exit codes: 0 ok, 1 failed, 2 usage`;

function parse(argv: string[]) {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq === -1 ? undefined : eq);
    if (BOOL_FLAGS.has(name) && eq === -1) flags[name] = true;
    else if (STRING_FLAGS.has(name)) {
      const v = eq !== -1 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`Option --${name} needs a value`);
      flags[name] = v;
    } else throw new UsageError(`Unknown option: --${name}`);
  }
  return { flags, positionals };
}

/** Runs `setup` or `init`; returns the exit code. */
export async function runSetup(argv: string[], io: SetupIo, sdkVersion: string): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { flags, positionals } = parsed;
  const command = positionals[0];
  if (flags.help || command === "help") {
    io.out(HELP);
    return 0;
  }
  if (command !== "setup" && command !== "init") {
    io.err(`${command ? `Unknown command: ${command}` : "Missing command"}\n\n${HELP}`);
    return 2;
  }
  const str = (k: string) => (typeof flags[k] === "string" ? (flags[k] as string) : undefined);
  const interactive = io.interactive && !flags.yes;
  try {
    if (!flags.force && (await io.readFile(CONFIG_FILE)) !== null) {
      throw new UsageError(`${CONFIG_FILE} exists: pass --force to overwrite it`);
    }
    const pkgText = await io.readFile("package.json");
    let pkg: PackageJson = {};
    if (pkgText !== null) {
      try {
        pkg = JSON.parse(pkgText);
      } catch {
        throw new Error("package.json is not valid JSON");
      }
    }
    const detected = detectProject(pkg);
    const framework = (str("framework") ?? detected.framework) as Framework;

    let kind = str("provider") ?? detected.provider ?? undefined;
    if (!kind && interactive) {
      kind = (await io.ask(`CMS (${PROVIDER_KINDS.join(", ")}) [generic]: `)).trim() || "generic";
    }
    kind ??= "generic";
    if (!(PROVIDER_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`Invalid --provider: ${kind} (one of ${PROVIDER_KINDS.join(", ")})`);
    }
    const provider: ProviderConfig = { cms: kind as ProviderKind };
    for (const [flag, field] of Object.entries(ID_FLAGS)) {
      const v = str(flag);
      if (v !== undefined && PROVIDER_FIELDS[provider.cms].includes(field)) {
        (provider as Record<string, unknown>)[field] = v;
      }
    }
    const first = PROVIDER_FIELDS[provider.cms][0];
    if (first && !provider[first] && interactive && provider.cms !== "storyblok") {
      const v = (await io.ask(`${provider.cms} ${String(first)}: `)).trim();
      if (v) (provider as Record<string, unknown>)[first] = v;
    }

    let tenant = str("tenant");
    const customDomain = str("custom-domain");
    if (!tenant && !customDomain) {
      if (!interactive) throw new UsageError("Missing --tenant (or --custom-domain)");
      tenant = (await io.ask("Cachely tenant slug: ")).trim();
    }
    const target = { tenant, customDomain, proxyDomain: str("proxy-domain") };
    // The same checks the SDK makes at runtime, so a config that is written works.
    let origin: string;
    try {
      origin = resolveTenantOrigin(`cachely ${command}`, target);
      resolveProvider(provider as ProviderInput, {
        fn: `cachely ${command}`,
        apiOrigin: str("api-origin"),
      });
    } catch (e) {
      throw new UsageError((e as Error).message); // a bad flag value
    }

    const config: CachelyConfigFile = {
      ...(customDomain ? { customDomain } : { tenant }),
      ...(target.proxyDomain && !customDomain ? { proxyDomain: target.proxyDomain } : {}),
      provider,
      ...(str("api-origin") ? { apiOrigin: str("api-origin") } : {}),
      framework,
      sdkVersion,
    };
    await io.writeFile(CONFIG_FILE, JSON.stringify(config, null, 2) + "\n");
    const changes = command === "setup" ? setupChanges(config) : null;
    if (flags.json) {
      io.out(
        JSON.stringify(
          { ok: true, file: CONFIG_FILE, config, tenantOrigin: origin, detected, changes },
          null,
          2,
        ),
      );
      return 0;
    }
    io.out(`Wrote ${CONFIG_FILE} (tenant host ${origin}, ${provider.cms}, ${framework})`);
    if (changes) {
      io.out(`
1. Install:  npm install @cachely/sdk@${sdkVersion}

2. Env (.env / your host's settings):
${changes.env.map((l) => `   ${l}`).join("\n")}${
        changes.removeEnv.length
          ? `\n   remove from anything the browser sees: ${changes.removeEnv.join(", ")}
   (store the token on the tenant instead: Cachely dashboard → API proxy)`
          : ""
      }

3. Code (${changes.file}):

${changes.code}
`);
    }
    return 0;
  } catch (e) {
    io.err(`Error: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}
