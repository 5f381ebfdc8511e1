/**
 * Public demo data (GET /api/demos/:provider): a provider's sample API body and asset
 * URL before and after Cachely, rewritten by the real lib/rewrite for the example
 * tenant host `demo.<PROXY_DOMAIN>`.
 */
import {
  definitionOf,
  type DerivedOrigins,
  deriveOrigins,
  PROVIDER_KINDS,
  type ProviderConfig,
  type ProviderKind,
} from "../providers/mod.ts";
import { rewriteProviderUrls } from "../rewrite/mod.ts";
import type { Config } from "../config.ts";
import { DEMO_SAMPLES } from "./samples.ts";
import { z } from "zod";
import { str } from "../base/text.ts";

export const DEMO_TENANT_SLUG = "demo";

export type Demo = {
  provider: ProviderKind;
  label: string;
  tenantOrigin: string;
  /** The tenant's one identifier, and the origins derived from it. */
  setup: ProviderConfig;
  origins: DerivedOrigins;
  apiExample: {
    path: string;
    upstreamUrl: string;
    proxiedUrl: string;
    upstream: unknown;
    proxied: unknown;
  };
  assetExample: { upstreamUrl: string; proxiedUrl: string } | null;
};

/** The response shape of a `Demo` (GET /api/demos/{provider}). */
export const demoSchema = z.strictObject({
  provider: z.enum(PROVIDER_KINDS),
  label: str(),
  tenantOrigin: str(),
  setup: z.looseObject({ cms: z.enum(PROVIDER_KINDS) }).describe("The tenant's one identifier"),
  origins: z.strictObject({
    api: str().nullable(),
    assets: z.array(z.strictObject({ role: str(), url: str() })),
  }),
  apiExample: z.strictObject({
    path: str(),
    upstreamUrl: str(),
    proxiedUrl: str(),
    upstream: z.unknown().describe("The provider's sample body"),
    proxied: z.unknown().describe("The same body with its URLs rewritten"),
  }),
  assetExample: z.strictObject({ upstreamUrl: str(), proxiedUrl: str() }).nullable(),
});

export function isDemoProvider(id: string): id is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(id);
}

/** The demo for one provider; `tenantOrigin` is e.g. `https://demo.cachely.example`. */
export function demoFor(provider: ProviderKind, config: Config, tenantOrigin: string): Demo {
  const sample = DEMO_SAMPLES[provider];
  const rewrite = (text: string) =>
    rewriteProviderUrls(text, {
      snapshot: {
        cms: provider,
        cloudName: sample.provider.cloudName ?? null,
        provider: sample.provider,
      },
      tenantOrigin,
      providerContext: {
        imageHostAssetOrigin: config.imageHostAssetOrigin,
        imageHostApiOrigin: config.imageHostApiOrigin,
      },
    });
  return {
    provider,
    label: definitionOf(provider).label,
    tenantOrigin,
    setup: sample.provider,
    origins: deriveOrigins(sample.provider, {
      imageHostOrigin: config.imageHostAssetOrigin,
      imageHostApiOrigin: config.imageHostApiOrigin,
    }),
    apiExample: {
      path: sample.path,
      upstreamUrl: sample.apiOrigin + sample.path,
      proxiedUrl: `${tenantOrigin}/~api${sample.path}`,
      upstream: sample.body,
      proxied: JSON.parse(rewrite(JSON.stringify(sample.body))),
    },
    assetExample: sample.assetUrl === null
      ? null
      : { upstreamUrl: sample.assetUrl, proxiedUrl: rewrite(sample.assetUrl) },
  };
}
