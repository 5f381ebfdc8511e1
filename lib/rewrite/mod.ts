/**
 * The URL-rewriting core shared by the edge, regenerate and the sdk: provider
 * asset URLs in a body become tenant-host URLs. The matching itself lives in the
 * dependency-free sdk/rewrite.ts; this module derives the rules from a tenant's
 * snapshot and memoises the compiled rewriter, so the hot path compiles nothing.
 */
import type { EdgeSnapshot } from "../kv/snapshot.ts";
import { privateDistributionHost, type ProviderContext, PROVIDERS } from "../providers/mod.ts";
import { compileRewriter, type Rewriter, type RewriteRules } from "../../sdk/rewrite.ts";

export { ASSET_PREFIX } from "../../sdk/rewrite.ts";

export type RewriteTarget = {
  /** Only the CMS kind and cloud name matter (the public demos pass just these). */
  snapshot: Pick<EdgeSnapshot, "cms" | "cloudName">;
  /** e.g. `http://acme.localhost:8000` or `https://cdn.example.com` */
  tenantOrigin: string;
  providerContext: ProviderContext;
};

/** Rewrites every provider asset URL of the tenant's CMS in `text` to the tenant origin. */
export function rewriteProviderUrls(text: string, target: RewriteTarget): string {
  return rewriterFor(target)(text);
}

/** The `host[:port]` part of an origin URL. */
export function hostOf(origin: string): string {
  return new URL(origin).host.toLowerCase();
}

/** Rewrite rules for a tenant: its provider's asset hosts, or the image host and its cloud. */
export function rulesFor(target: RewriteTarget): RewriteRules {
  const { snapshot, providerContext } = target;
  if (snapshot.cms === "cloudinary") {
    const host = hostOf(providerContext.imageHostAssetOrigin);
    return {
      tenantOrigin: target.tenantOrigin,
      imageHost: snapshot.cloudName
        ? {
          host,
          cloudName: snapshot.cloudName,
          privateHost: privateDistributionHost(host, snapshot.cloudName),
        }
        : undefined,
    };
  }
  return { tenantOrigin: target.tenantOrigin, assetHosts: PROVIDERS[snapshot.cms].assetHosts };
}

const memo = new Map<string, Rewriter>();

/** The compiled rewriter for a target, memoised by everything the rules depend on. */
export function rewriterFor(target: RewriteTarget): Rewriter {
  const s = target.snapshot;
  const key = `${s.cms}|${s.cloudName ?? ""}|${target.tenantOrigin}|${
    s.cms === "cloudinary" ? target.providerContext.imageHostAssetOrigin : ""
  }`;
  let r = memo.get(key);
  if (!r) {
    r = compileRewriter(rulesFor(target));
    if (memo.size >= 5_000) memo.delete(memo.keys().next().value!);
    memo.set(key, r);
  }
  return r;
}
