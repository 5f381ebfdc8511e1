/** The exact code and env changes `cachely setup` prints for a framework and provider. */
import { definitionOf, PROVIDER_FIELDS, type ProviderConfig } from "./providers.ts";
import { ENV_PREFIX, type Framework } from "./setup_detect.ts";
import { proxyUrlVariable } from "./setup_files.ts";

/** The config file `setup` and `init` write (cachely.config.json). */
export type CachelyConfigFile = {
  tenant?: string;
  customDomain?: string;
  /** The tenant origin given as --proxy-url (CACHELY_PROXY_URL). */
  proxyUrl?: string;
  proxyDomain?: string;
  provider: ProviderConfig;
  apiOrigin?: string;
  framework: Framework;
  sdkVersion: string;
};

/** How code of this framework reads a public env variable. */
function envRef(fw: Framework, name: string): string {
  if (fw === "vite" || fw === "astro") return `import.meta.env.${name}`;
  return `process.env.${name}`;
}

export type SetupChanges = { env: string[]; removeEnv: string[]; file: string; code: string };

/** What the user has to change, ready to print. */
export function setupChanges(cfg: CachelyConfigFile): SetupChanges {
  const prefix = ENV_PREFIX[cfg.framework];
  const v = (stem: string) => `${prefix}${stem}`;
  const env: string[] = [];
  const target: string[] = [];
  if (cfg.proxyUrl) {
    const variable = proxyUrlVariable(cfg.framework);
    env.push(`${variable}=${cfg.proxyUrl}`);
    if (cfg.framework === "nuxt") {
      // NUXT_PUBLIC_ variables only fill runtimeConfig.public keys the config declares.
      env.push('nuxt.config: runtimeConfig: { public: { cachelyProxyUrl: "" } }');
    }
    target.push(
      `tenantOrigin: ${
        cfg.framework === "nuxt"
          ? "useRuntimeConfig().public.cachelyProxyUrl"
          : envRef(cfg.framework, variable)
      }`,
    );
  } else if (cfg.customDomain) {
    env.push(`${v("CACHELY_CUSTOM_DOMAIN")}=${cfg.customDomain}`);
    target.push(`customDomain: ${envRef(cfg.framework, v("CACHELY_CUSTOM_DOMAIN"))}`);
  } else {
    env.push(`${v("CACHELY_TENANT")}=${cfg.tenant}`);
    target.push(`tenant: ${envRef(cfg.framework, v("CACHELY_TENANT"))}`);
    if (cfg.proxyDomain) target.push(`proxyDomain: ${JSON.stringify(cfg.proxyDomain)}`);
  }
  const hints = definitionOf(cfg.provider.cms).setup;
  // The identifier: the kind's first field, under its env variable stem.
  const id = hints.envName ? [PROVIDER_FIELDS[cfg.provider.cms][0], hints.envName] as const : null;
  let idExpr = "";
  if (id && cfg.provider[id[0]]) {
    env.push(`${v(id[1])}=${cfg.provider[id[0]]}`);
    idExpr = envRef(cfg.framework, v(id[1]));
  }
  const removeEnv = (hints.secrets ?? []).flatMap((s) => [s, `${prefix}${s}`])
    .filter((s, i, a) => a.indexOf(s) === i);
  const t = target.join(", ");
  const ext = cfg.framework === "node" || cfg.framework === "unknown" ? "js" : "ts";
  let code: string;
  if (hints.snippet) {
    code = hints.snippet(idExpr, t);
  } else {
    const field = id ? `, ${String(id[0])}: ${idExpr}` : "";
    code = `import { createCachelyFetch } from "@cachely/sdk";

// Use cachelyFetch wherever your ${cfg.provider.cms} client or code calls fetch:
// API calls go through Cachely and asset URLs in answers point at your tenant host.
export const cachelyFetch = createCachelyFetch({
  ${t},
  provider: { cms: ${JSON.stringify(cfg.provider.cms)}${field} },${
      cfg.apiOrigin ? `\n  apiOrigin: ${JSON.stringify(cfg.apiOrigin)},` : ""
    }
});`;
  }
  return { env, removeEnv, file: `lib/cachely.${ext}`, code };
}
