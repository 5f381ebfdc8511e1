/**
 * The provider rule set: ONE definition per kind (sdk/providers/<kind>.ts, listed in
 * sdk/providers/list.ts), shared by the edge, the management app and this SDK. This module
 * derives the per-kind tables and the functions every importer uses from that list:
 * - which identifier each CMS / media kind needs (`validateProviderConfig`),
 * - which origins follow from it (`deriveOrigins`),
 * - which provider URL forms in bodies become which clean tenant URL
 *   (`providerSources`, compiled by `createProviderRewriter`),
 * - where a clean tenant path is fetched upstream and what happens to its query
 *   (`compileProviderRoutes`).
 *
 * Dependency-free: it runs unchanged in browsers, Deno and Node. The table of
 * type routing and query handling is docs/providers.md.
 *
 * @example
 * ```ts
 * const cfg = { cms: "contentful", spaceId: "abc123xyz" } as const;
 * const rewrite = createProviderRewriter(cfg, { tenantOrigin: "https://acme.cachely.example" });
 * rewrite("https://images.ctfassets.net/abc123xyz/id/tok/cat.jpg?w=400");
 * // -> "https://acme.cachely.example/id/tok/cat.jpg?w=400"
 * ```
 *
 * @module
 */
import { compileRewriter, type Rewriter, type SourceRule } from "./rewrite.ts";
import { PROVIDER_LIST, type ProviderKind } from "./providers/list.ts";
import type {
  DerivedOrigins,
  FieldName,
  ProviderConfig,
  ProviderEnv,
  ProviderKindDefinition,
  ProviderProblem,
  ProviderRoutes,
} from "./providers/types.ts";

export { PROVIDER_LIST, type ProviderKind } from "./providers/list.ts";
export {
  type AuthMode,
  type DerivedOrigin,
  type DerivedOrigins,
  type ProviderConfig,
  type ProviderEnv,
  type ProviderProblem,
  type ProviderRoutes,
  type QueryPolicy,
  STORYBLOK_REGIONS,
  type UpstreamTarget,
} from "./providers/types.ts";
export { type FileClass, fileClassOf, isHostname, parseHttpsOrigin } from "./providers/shared.ts";

/** Every CMS / media kind a tenant can be created with, in the list's order. */
export const PROVIDER_KINDS: readonly ProviderKind[] = PROVIDER_LIST.map((d) => d.kind);

/** Each kind's definition by name. */
const PROVIDER_DEFINITIONS = Object.fromEntries(
  PROVIDER_LIST.map((d) => [d.kind, d]),
) as unknown as Readonly<Record<ProviderKind, ProviderKindDefinition<ProviderKind>>>;

/** The definition of a kind. */
export const definitionOf = (kind: ProviderKind): ProviderKindDefinition<ProviderKind> =>
  PROVIDER_DEFINITIONS[kind];

/** A table of one value per kind, from its definition (null where the kind has none). */
export function tableOf<T>(
  pick: (d: ProviderKindDefinition<ProviderKind>) => T,
): Record<ProviderKind, T> {
  return Object.fromEntries(PROVIDER_LIST.map((d) => [d.kind, pick(d)])) as Record<
    ProviderKind,
    T
  >;
}

/** Per field: the pattern an identifier must match, and what to say when it does not. */
export const IDENTIFIER_RULES = Object.fromEntries(
  PROVIDER_LIST.flatMap((d) =>
    Object.entries(d.fields).flatMap(([f, spec]) => spec?.rule ? [[f, spec.rule]] : [])
  ),
) as Record<
  "spaceId" | "repository" | "projectId" | "dataset" | "storeDomain" | "cloudName" | "imgixDomain",
  { re: RegExp; message: string }
>;

/** The identifier fields that belong to each kind (the dashboard asks for these). */
export const PROVIDER_FIELDS: Record<ProviderKind, readonly (keyof ProviderConfig)[]> = tableOf((
  d,
) => Object.keys(d.fields) as FieldName[]);

/** The CLI flag of an identifier field (`spaceId` -> `space-id`), for `setup` and `tenants create`. */
export const fieldFlag = (field: string): string =>
  field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Checks the identifier fields of a config: the first problem, or null. Fields
 * the kind requires must be present; fields of other kinds are ignored. `allowHttp`:
 * http origins pass too (a server with ALLOW_PRIVATE_UPSTREAMS).
 */
export function validateProviderConfig(
  cfg: ProviderConfig,
  opts: { allowHttp?: boolean } = {},
): ProviderProblem | null {
  const def = definitionOf(cfg.cms);
  for (const f of def.required) {
    if (!cfg[f]) return { field: f, message: `is required for ${cfg.cms}` };
  }
  for (const [f, spec] of Object.entries(def.fields)) {
    const v = cfg[f as FieldName];
    if (v === undefined || v === null || !spec) continue;
    if (typeof v !== "string") return { field: f, message: "must be a string" };
    const message = spec.check
      ? spec.check(v, opts)
      : spec.rule && !spec.rule.re.test(v)
      ? spec.rule.message
      : null;
    if (message) return { field: f, message };
  }
  return null;
}

/**
 * Derives API and asset origins from the identifier (the table in
 * docs/providers.md). Without the identifier a kind derives nothing.
 */
export function deriveOrigins(cfg: ProviderConfig, env: ProviderEnv = {}): DerivedOrigins {
  return definitionOf(cfg.cms).origins(cfg, env);
}

/** Options for the rewriter. */
export type ProviderRewriterOptions = {
  /** The tenant host origin, e.g. `https://acme.cachely.example`. */
  tenantOrigin: string;
  env?: ProviderEnv;
  /**
   * Image host only: keep the cloud name as the first path segment (the
   * client-side rewriter's form, SPEC). The edge serves both forms.
   */
  keepCloudName?: boolean;
};

/**
 * The provider URL forms of a config and the clean prefix each becomes. Empty
 * when the kind has no identifier yet (then nothing is rewritten this way).
 */
export function providerSources(
  cfg: ProviderConfig,
  env: ProviderEnv = {},
  keepCloudName = false,
): SourceRule[] {
  return definitionOf(cfg.cms).sources(cfg, env, keepCloudName);
}

/**
 * Compiles the rewriter that turns every provider URL of the config (http,
 * https, protocol-relative, `\/`-escaped in JSON, inside rich text and HTML) into
 * its clean tenant URL. Compile once, apply to many texts.
 */
export function createProviderRewriter(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): Rewriter {
  return compileRewriter({
    tenantOrigin: opts.tenantOrigin,
    sources: providerSources(cfg, opts.env, opts.keepCloudName),
  });
}

/** One-shot: the clean tenant URL for one provider URL (unchanged when it is not one). */
export function cleanUrlFor(
  cfg: ProviderConfig,
  sourceUrl: string,
  opts: ProviderRewriterOptions,
): string {
  return createProviderRewriter(cfg, opts)(sourceUrl);
}

/** Compiles how clean paths of a config are routed upstream (docs/providers.md). */
export function compileProviderRoutes(cfg: ProviderConfig, env: ProviderEnv = {}): ProviderRoutes {
  return definitionOf(cfg.cms).routes(cfg, env);
}

/** A sample provider URL for a config and its clean tenant URL (dashboard, demos). */
export function sampleAsset(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): { source: string; clean: string } | null {
  const o = deriveOrigins(cfg, opts.env).assets[0];
  if (!o) return null;
  const source = o.url + definitionOf(cfg.cms).samplePath;
  return { source, clean: cleanUrlFor(cfg, source, opts) };
}

/** Everything the dashboard shows for a config: derived origins and one sample clean URL. */
export function describeProvider(
  cfg: ProviderConfig,
  opts: ProviderRewriterOptions,
): DerivedOrigins & { sample: { source: string; clean: string } | null } {
  return { ...deriveOrigins(cfg, opts.env), sample: sampleAsset(cfg, opts) };
}
