/**
 * `cachely setup` and `cachely init` (the package's bin): detect the framework and CMS
 * package from package.json, ask for (or take as flags) the tenant and the provider's
 * identifier, write cachely.config.json; `setup` also prints the exact code and env
 * changes. Exit codes: 0 ok, 1 failed, 2 usage. Runtime-free: bin.ts supplies the I/O.
 */
import { createGenericProvider, type ProviderInput, resolveProvider } from "./provider_registry.ts";
import {
  definitionOf,
  fieldFlag,
  PROVIDER_FIELDS,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
} from "./providers.ts";
import { generic } from "./providers/generic.ts";
import { resolveTenantOrigin } from "./tenant_origin.ts";
import { type FlagSpec, parseArgs, UsageError } from "./args.ts";
import {
  detectProject,
  type Framework,
  FRAMEWORK_NAMES,
  isFramework,
  type PackageJson,
} from "./setup_detect.ts";
import { type CachelyConfigFile, setupChanges } from "./setup_code.ts";
import {
  envExampleWith,
  GENERATED_MARK,
  genericHosts,
  helperCode,
  helperPath,
  proxyUrlVariable,
} from "./setup_files.ts";
import {
  NUXT_PRISMIC_CLIENT_FILES,
  patchPrismicClient,
  prismicClientInstructions,
} from "./setup_prismic_client.ts";

export const CONFIG_FILE = "cachely.config.json";

export type SetupIo = {
  out(text: string): void;
  err(text: string): void;
  /** The file's text, or null when it does not exist. */
  readFile(name: string): Promise<string | null>;
  writeFile(name: string, text: string): Promise<void>;
  /** Throws (naming the path) when `name` may not be written: a symbolic link, outside --dir. */
  checkWrite?(name: string): Promise<void>;
  /** True when `name` is a directory of the project (Nuxt's utils/). */
  isDir?(name: string): Promise<boolean>;
  /** True when questions can be asked (a terminal and no --yes). */
  interactive: boolean;
  ask(question: string): Promise<string>;
};

/** --flag -> provider config field: every kind's fields, in kebab case (`spaceId` -> `space-id`). */
const ID_FLAGS: Record<string, keyof ProviderConfig> = Object.fromEntries(
  Object.values(PROVIDER_FIELDS).flat().map((f) => [fieldFlag(f), f]),
);

/** The kind setup falls back to: the one that works with any origin. */
const DEFAULT_KIND: ProviderKind = generic.kind;
/** Every flag `setup` and `init` take (bin.ts reads --dir with it too). */
export const SETUP_FLAGS: FlagSpec = {
  tenant: "string",
  "custom-domain": "string",
  "proxy-domain": "string",
  provider: "string",
  framework: "string",
  "api-origin": "string",
  "proxy-url": "string",
  "api-hosts": "string",
  "asset-hosts": "string",
  dir: "string",
  ...Object.fromEntries(Object.keys(ID_FLAGS).map((f) => [f, "string" as const])),
  yes: "bool",
  force: "bool",
  json: "bool",
  help: "bool",
  "dry-run": "bool",
};

export const HELP = `usage: cachely <setup|init> [provider] [options]

  setup   detect framework (Next, Nuxt, Vite, plain) and CMS from package.json, write
          ${CONFIG_FILE}, the helper (Next lib/cachely.ts; Nuxt composables/useCachely.ts
          or utils/cachely.ts; others cachely.ts) and CACHELY_PROXY_URL in .env.example
  init    write ${CONFIG_FILE} only; \`init <provider>\` = \`setup <provider>\`
          (\`setup prismic\` runs the Prismic onboarder; on Nuxt it also patches a
          simple app/prismic/client.js when you agree or pass --yes, and prints what
          to change in any other)

options:
  --tenant <slug>           tenant slug (asked when missing on a terminal)
  --custom-domain <host>    a verified custom domain instead of <slug>.<proxy domain>
  --proxy-domain <domain>   your Cachely instance's proxy domain (default cachely.app)
  --provider <kind>         ${PROVIDER_KINDS.join(", ")} (default: detected)
  --space-id, --repository, --project-id, --dataset, --store-domain, --cloud-name,
  --imgix-domain, --region, --origin-url, --video-origin
                            the provider's identifier
  --api-origin <url>        the tenant's API origin when it is not the derived one
  --proxy-url <url>         the tenant host for CACHELY_PROXY_URL (instead of --tenant)
  --api-hosts <h1,h2>       generic providers: API hosts proxied under /~api/
  --asset-hosts <h1,h2>     generic providers: asset hosts rewritten to the tenant host
  --dir <path>              the project directory (default: the current one); setup
                            writes only inside it, never through a symbolic link
  --dry-run                 print every action, write nothing
  --framework <name>        override the detected framework: ${FRAMEWORK_NAMES.join(", ")}
  --yes                     never ask; fail on what is missing (CI); overwrite files
                            setup did not write (never without it). Installs nothing.
  --force                   overwrite an existing ${CONFIG_FILE}
  --json                    print the result as JSON
  --help                    this help

exit codes: 0 ok, 1 failed, 2 usage`;

/** What every step of one run reads: the I/O, the command and its flags. */
type Run = {
  io: SetupIo;
  command: "setup" | "init";
  flags: Record<string, string | boolean>;
  /** A string flag's value, undefined when absent. */
  str(flag: string): string | undefined;
  /** Questions may be asked (a terminal and no --yes). */
  interactive: boolean;
  sdkVersion: string;
};

type Action = { file: string; text: string; what: string };

/** package.json, or {} when the project has none. */
async function readPackageJson(io: SetupIo): Promise<PackageJson> {
  const text = await io.readFile("package.json");
  if (text === null) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new Error("package.json is not valid JSON");
  }
}

/** --provider, else the positional or detected kind, else asked, else generic; with its ids. */
async function chooseProvider(run: Run, fallback: string | undefined): Promise<ProviderConfig> {
  const { io, str, interactive } = run;
  let kind = str("provider") ?? fallback;
  if (!kind && interactive) {
    kind = (await io.ask(`CMS (${PROVIDER_KINDS.join(", ")}) [${DEFAULT_KIND}]: `)).trim() ||
      DEFAULT_KIND;
  }
  kind ??= DEFAULT_KIND;
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
  if (first && !provider[first] && interactive && definitionOf(provider.cms).setup.ask !== false) {
    const v = (await io.ask(`${provider.cms} ${String(first)}: `)).trim();
    if (v) (provider as Record<string, unknown>)[first] = v;
  }
  return provider;
}

/**
 * The config file's content, the tenant origin and the generic hosts, checked as the SDK checks
 * them at runtime, so a config that is written works; a bad value is named as its flag.
 */
async function resolveConfig(run: Run, provider: ProviderConfig, framework: Framework) {
  const { io, str, command } = run;
  let tenant = str("tenant");
  const customDomain = str("custom-domain");
  const proxyUrl = str("proxy-url");
  if (!tenant && !customDomain && !proxyUrl) {
    if (!run.interactive) {
      throw new UsageError("Missing --tenant (or --custom-domain, --proxy-url)");
    }
    tenant = (await io.ask("Cachely tenant slug: ")).trim();
  }
  const target = proxyUrl && !tenant && !customDomain
    ? { tenantOrigin: proxyUrl }
    : { tenant, customDomain, proxyDomain: str("proxy-domain") };
  const hostList = (flag: string) => str(flag)?.split(",").map((h) => h.trim()).filter(Boolean);
  let origin: string;
  let hosts = genericHosts(provider);
  try {
    origin = resolveTenantOrigin(`cachely ${command}`, target);
    resolveProvider(provider as ProviderInput, {
      fn: `cachely ${command}`,
      apiOrigin: str("api-origin"),
    });
    const apiHosts = hostList("api-hosts");
    const assetHosts = hostList("asset-hosts");
    if (apiHosts || assetHosts) {
      // checked as the SDK will at runtime (an Error naming apiHosts[i] / assetHosts[i])
      createGenericProvider({ id: provider.cms, apiHosts, assetHosts });
      hosts = {
        apiHosts: apiHosts ?? hosts.apiHosts,
        assetHosts: assetHosts ?? hosts.assetHosts,
      };
    }
  } catch (e) {
    // a bad flag value, named as the flag
    throw new UsageError(
      (e as Error).message.replace(
        /invalid option (api|asset)Hosts(\[\d+\])?/,
        "invalid option --$1-hosts$2",
      )
        .replace("invalid option tenantOrigin", "invalid option --proxy-url"),
    );
  }
  const config: CachelyConfigFile = {
    ...(customDomain ? { customDomain } : tenant ? { tenant } : { proxyUrl: origin }),
    ...(target.proxyDomain && !customDomain ? { proxyDomain: target.proxyDomain } : {}),
    provider,
    ...(str("api-origin") ? { apiOrigin: str("api-origin") } : {}),
    framework,
    sdkVersion: run.sdkVersion,
  };
  return { config, origin, hosts };
}

/**
 * The code files `setup` writes (the helper, the Nuxt Prismic client, .env.example), and the
 * helper it leaves alone because setup did not write it (never overwritten without --yes).
 */
async function codeActions(
  run: Run,
  config: CachelyConfigFile,
  origin: string,
  hosts: ReturnType<typeof genericHosts>,
  dryRun: boolean,
) {
  const { io, flags } = run;
  const { provider, framework } = config;
  const actions: Action[] = [];
  const skipped: string[] = [];
  let prismicClient: PrismicClientStep | null = null;
  const hasUtils = (await io.isDir?.("utils")) ?? false;
  const file = helperPath(framework, hasUtils, provider);
  const existing = await io.readFile(file);
  if (existing !== null && !existing.startsWith(GENERATED_MARK) && !flags.yes) {
    skipped.push(file); // not ours: never overwritten without --yes
  } else {
    actions.push({
      file,
      text: helperCode(provider, framework, hasUtils, run.sdkVersion, hosts),
      what: existing === null ? "write" : "overwrite",
    });
  }
  // A kind with its own Nuxt composable (Prismic) has an onboarder client file to patch.
  if (definitionOf(provider.cms).setup.nuxtComposable && framework === "nuxt") {
    prismicClient = await nuxtPrismicClient(io, {
      yes: flags.yes === true,
      ask: run.interactive && !dryRun,
    });
    if (prismicClient?.text) {
      actions.push({ file: prismicClient.file, text: prismicClient.text, what: "patch" });
    }
  }
  const variable = proxyUrlVariable(framework);
  const env = envExampleWith(await io.readFile(".env.example"), origin, variable);
  if (env !== null) {
    actions.push({ file: ".env.example", text: env, what: `add ${variable} to` });
  }
  return { actions, skipped, prismicClient };
}

/** --dry-run: every action it would take, nothing written. */
function printDryRun(
  io: SetupIo,
  actions: Action[],
  skipped: string[],
  prismicClient: PrismicClientStep | null,
): void {
  for (const a of actions) io.out(`would ${a.what} ${a.file}`);
  for (const f of skipped) io.out(`would leave ${f} alone (not written by setup; --yes)`);
  if (prismicClient && !prismicClient.text) {
    io.out(`would leave ${prismicClient.file} alone (${prismicClient.reason})`);
  }
  io.out("would install nothing (npm install @cachely/sdk is yours to run)");
}

/** The printed next steps of `setup`: install, env, code. */
function nextSteps(changes: ReturnType<typeof setupChanges>, sdkVersion: string): string {
  return `
1. Install (setup installs nothing): npm install <Cachely URL>/sdk/cachely-sdk-${sdkVersion}.tgz
   (your Cachely instance serves it; the tenant's Overview shows the whole command)

2. Env (.env / your host's settings):
${changes.env.map((l) => `   ${l}`).join("\n")}${
    changes.removeEnv.length
      ? `\n   remove from anything the browser sees: ${changes.removeEnv.join(", ")}
   (store the token on the tenant instead: Cachely dashboard {"\u2192"} API proxy)`
      : ""
  }

3. Code (${changes.file}):

${changes.code}
`;
}

/** Runs `setup` or `init`; returns the exit code. */
// Long: the command-line flow read top to bottom as the user meets it (parse, provider, config,
// the file actions, --dry-run, --json, the summary); the steps are helpers above and what remains
// is their order and the one try that turns any error into exit code 2 or 1.
export async function runSetup(argv: string[], io: SetupIo, sdkVersion: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv, SETUP_FLAGS);
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
  // `setup prismic` = `init prismic` = `setup --provider prismic` (the original's onboarders)
  const positionalProvider = positionals[1];
  const writesCode = command === "setup" || positionalProvider !== undefined;
  const dryRun = flags["dry-run"] === true;
  const run: Run = {
    io,
    command,
    flags,
    str: (k) => (typeof flags[k] === "string" ? (flags[k] as string) : undefined),
    interactive: io.interactive && !flags.yes,
    sdkVersion,
  };
  try {
    if (!flags.force && (await io.readFile(CONFIG_FILE)) !== null) {
      throw new UsageError(`${CONFIG_FILE} exists: pass --force to overwrite it`);
    }
    const detected = detectProject(await readPackageJson(io));
    const framework = run.str("framework") ?? detected.framework;
    if (!isFramework(framework)) {
      throw new UsageError(
        `Invalid --framework: ${framework} (one of ${FRAMEWORK_NAMES.join(", ")})`,
      );
    }
    const provider = await chooseProvider(
      run,
      positionalProvider ?? detected.provider ?? undefined,
    );
    const { config, origin, hosts } = await resolveConfig(run, provider, framework);
    // Every action first, so --dry-run can print them all and write nothing.
    const code = writesCode
      ? await codeActions(run, config, origin, hosts, dryRun)
      : { actions: [], skipped: [], prismicClient: null };
    const { skipped, prismicClient } = code;
    const actions: Action[] = [
      { file: CONFIG_FILE, text: JSON.stringify(config, null, 2) + "\n", what: "write" },
      ...code.actions,
    ];
    // Every target checked before anything is written: a refusal leaves the project as it was.
    for (const a of actions) await io.checkWrite?.(a.file);
    if (dryRun) {
      printDryRun(io, actions, skipped, prismicClient);
      return 0;
    }
    for (const a of actions) await io.writeFile(a.file, a.text);
    for (const f of skipped) io.err(`Left ${f} alone: setup did not write it (--yes overwrites)`);
    const clientNote = prismicClient?.text ? null : prismicClient;
    const changes = command === "setup" ? setupChanges(config) : null;
    if (flags.json) {
      const client = prismicClient && {
        file: prismicClient.file,
        patched: prismicClient.text !== undefined,
        reason: prismicClient.reason,
      };
      const report = {
        ok: true,
        file: CONFIG_FILE,
        config,
        tenantOrigin: origin,
        detected,
        changes,
      };
      io.out(JSON.stringify({ ...report, ...(client ? { prismicClient: client } : {}) }, null, 2));
      return 0;
    }
    io.out(`Wrote ${CONFIG_FILE} (tenant host ${origin}, ${provider.cms}, ${framework})`);
    for (const a of actions.slice(1)) {
      io.out(`${a.what === "patch" ? "Patched" : "Wrote"} ${a.file}`);
    }
    if (clientNote?.instructions) {
      io.out(prismicClientInstructions(clientNote.file, clientNote.reason!));
    }
    if (changes) io.out(nextSteps(changes, sdkVersion));
    return 0;
  } catch (e) {
    io.err(`Error: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}

type PrismicClientStep = {
  file: string;
  /** The patched text, when setup patches it. */
  text?: string;
  /** Why it is left alone. */
  reason?: string;
  /** True when the user has something to change by hand. */
  instructions?: boolean;
};

/**
 * The Nuxt Prismic onboarder's own client (app/prismic/client.js, setup_prismic_client.ts):
 * patched when trivial and allowed (--yes, or a yes on a terminal), else left alone with
 * instructions. Null when the project has no such file.
 */
async function nuxtPrismicClient(
  io: SetupIo,
  consent: { yes: boolean; ask: boolean },
): Promise<PrismicClientStep | null> {
  for (const file of NUXT_PRISMIC_CLIENT_FILES) {
    const text = await io.readFile(file);
    if (text === null) continue;
    const patch = patchPrismicClient(text);
    if (patch.status === "already") return { file, reason: "it already uses Cachely" };
    if (patch.status === "complex") return { file, reason: patch.reason, instructions: true };
    const yes = consent.yes ||
      (consent.ask &&
        /^(y|yes|)$/i.test((await io.ask(`Patch ${file} to go through Cachely? [Y/n] `)).trim()));
    if (yes) return { file, text: patch.text };
    return { file, reason: "setup did not write it; --yes patches it", instructions: true };
  }
  return null;
}
