/**
 * The URL-rewriting core shared by the edge, regenerate and the demos: provider
 * asset URLs in a body become clean tenant-host URLs. The rules are the SDK's
 * provider rule set (sdk/providers.ts), so the server and the SDK produce the
 * same URLs; this module picks them for a tenant's snapshot and memoises the
 * compiled rewriter per snapshot object, so the hot path compiles nothing.
 */
import type { EdgeSnapshot } from "../kv/snapshot.ts";
import {
  definitionOf,
  type ProviderConfig,
  type ProviderContext,
  providerSources,
} from "../providers/mod.ts";
import { compileRewriter, type Rewriter, type RewriteRules } from "../../sdk/rewrite.ts";

export type RewriteTarget = {
  /** The CMS kind, cloud name and the provider identifiers. */
  snapshot: Pick<EdgeSnapshot, "cms" | "cloudName"> & { provider?: ProviderConfig };
  /** e.g. `http://acme.localhost:8000` or `https://cdn.example.com` */
  tenantOrigin: string;
  providerContext: ProviderContext;
};

/** Rewrites every provider asset URL of the tenant's CMS in `text` to the tenant origin. */
export function rewriteProviderUrls(text: string, target: RewriteTarget): string {
  return rewriterFor(target)(text);
}

/**
 * Rewrite rules for a tenant: the clean-URL rules of its identifier; a tenant
 * without one (created before identifiers) keeps the legacy `/~assets/<host>/`
 * form for its provider's hosts.
 */
export function rulesFor(target: RewriteTarget): RewriteRules {
  const { snapshot, providerContext } = target;
  const cfg: ProviderConfig = snapshot.provider ??
    { cms: snapshot.cms, cloudName: snapshot.cloudName };
  const sources = providerSources(cfg, {
    imageHostOrigin: providerContext.imageHostAssetOrigin,
  });
  const legacy = definitionOf(snapshot.cms).upstream.assetHosts;
  if (sources.length > 0 || legacy.length === 0) {
    return { tenantOrigin: target.tenantOrigin, sources };
  }
  return { tenantOrigin: target.tenantOrigin, assetHosts: legacy };
}

/** Compiled rewriters per snapshot object, then per tenant origin (few per snapshot). */
const memo = new WeakMap<object, Map<string, Rewriter>>();

/** The compiled rewriter for a target, memoised on its snapshot object. */
export function rewriterFor(target: RewriteTarget): Rewriter {
  let byOrigin = memo.get(target.snapshot);
  if (!byOrigin) memo.set(target.snapshot, byOrigin = new Map());
  const key = `${target.tenantOrigin}|${target.providerContext.imageHostAssetOrigin}`;
  let r = byOrigin.get(key);
  if (!r) {
    r = compileRewriter(rulesFor(target));
    if (byOrigin.size >= 64) byOrigin.clear();
    byOrigin.set(key, r);
  }
  return r;
}
