/**
 * Provider kinds (PROVIDER_KINDS and ProviderKind, from sdk/providers.ts), defined once: legacy
 * asset hosts, default API origin, auth mode and the webhook event-type rule. Pure data and functions, shared by lib/ and edge/.
 * The per-identifier rules (derived origins, clean URLs, routing) are the SDK's
 * sdk/providers.ts, re-exported here so server and SDK use one rule set.
 */
import type { ProviderKind } from "../../sdk/providers.ts";

export * from "../../sdk/providers.ts";
export * from "../../sdk/drafts.ts";

/**
 * How the stored token reaches the upstream: `Authorization: Bearer`, `Authorization: Basic`,
 * `Authorization: Token` (the `token` synonym customers know), a named header
 * (`apiAuthHeader`), a named query parameter, or not at all.
 */
export const AUTH_MODES = ["bearer", "basic", "token", "header", "query", "none"] as const;
export type AuthMode = typeof AUTH_MODES[number];

/** Cache-refresh webhook providers: three CMS kinds plus generic (SPEC). */
export const WEBHOOK_PROVIDERS = ["contentful", "sanity", "storyblok", "generic"] as const;
export type WebhookProvider = typeof WEBHOOK_PROVIDERS[number];

export type ProviderContext = {
  imageHostAssetOrigin: string;
  imageHostApiOrigin: string;
};

export type ProviderDef = {
  kind: ProviderKind;
  label: string;
  /**
   * Legacy: hosts served under `/~assets/<host>/` (URLs issued before clean URLs;
   * still answered, or 301 to the clean form when the tenant's identifier maps them).
   */
  assetHosts: string[];
  defaultApiOrigin: string | null;
  defaultAuthMode: AuthMode;
  /** Header or query parameter name for the `header` and `query` auth modes. */
  defaultAuthParam?: string;
};

export const PROVIDERS: Record<Exclude<ProviderKind, "cloudinary">, ProviderDef> = {
  contentful: {
    kind: "contentful",
    label: "Contentful",
    assetHosts: [
      "images.ctfassets.net",
      "assets.ctfassets.net",
      "videos.ctfassets.net",
      "downloads.ctfassets.net",
    ],
    defaultApiOrigin: "https://cdn.contentful.com",
    defaultAuthMode: "bearer",
  },
  sanity: {
    kind: "sanity",
    label: "Sanity",
    assetHosts: ["cdn.sanity.io"],
    defaultApiOrigin: null, // https://<projectId>.apicdn.sanity.io, project-specific
    defaultAuthMode: "bearer",
  },
  storyblok: {
    kind: "storyblok",
    label: "Storyblok",
    assetHosts: ["a.storyblok.com", "img2.storyblok.com"],
    defaultApiOrigin: "https://api.storyblok.com",
    defaultAuthMode: "query",
    defaultAuthParam: "token",
  },
  prismic: {
    kind: "prismic",
    label: "Prismic",
    assetHosts: ["images.prismic.io", "prismic-io.s3.amazonaws.com"],
    defaultApiOrigin: null, // https://<repo>.cdn.prismic.io, repository-specific
    defaultAuthMode: "query",
    defaultAuthParam: "access_token",
  },
  shopify: {
    kind: "shopify",
    label: "Shopify",
    assetHosts: [],
    defaultApiOrigin: null, // https://<store>/api, store-specific
    defaultAuthMode: "header",
    defaultAuthParam: "X-Shopify-Storefront-Access-Token",
  },
  imgix: {
    kind: "imgix",
    label: "imgix",
    assetHosts: [],
    defaultApiOrigin: null,
    defaultAuthMode: "none",
  },
  generic: {
    kind: "generic",
    label: "Generic HTTPS origin",
    assetHosts: [],
    defaultApiOrigin: null,
    defaultAuthMode: "bearer",
  },
};

/** The image/video host (SPEC "The image/video host integration"). */
export function imageHostProvider(ctx: ProviderContext, cloudName: string): ProviderDef & {
  imageOrigin: string;
  videoOrigin: string;
  privateHost: string | null;
} {
  const assetUrl = new URL(ctx.imageHostAssetOrigin);
  const origin = `${ctx.imageHostAssetOrigin}/${cloudName}`;
  return {
    kind: "cloudinary",
    label: "Cloudinary",
    assetHosts: [assetUrl.host],
    defaultApiOrigin: `${ctx.imageHostApiOrigin}/v1_1/${cloudName}`,
    defaultAuthMode: "basic",
    imageOrigin: origin,
    videoOrigin: origin,
    privateHost: privateDistributionHost(assetUrl.host, cloudName),
  };
}

/** `<cloud_name>-res.<provider domain>`, where the provider domain is the asset host minus `res.`. */
export function privateDistributionHost(assetHost: string, cloudName: string): string | null {
  if (!assetHost.startsWith("res.")) return null;
  return `${cloudName}-res.${assetHost.slice(4)}`;
}

/** Basic credential for the image host API: base64 of `<api_key>:<api_secret>`. */
export function imageHostToken(apiKey: string, apiSecret: string): string {
  const bytes = new TextEncoder().encode(`${apiKey}:${apiSecret}`);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function providerFor(
  cms: ProviderKind,
  ctx: ProviderContext,
  cloudName?: string | null,
): ProviderDef {
  if (cms === "cloudinary") return imageHostProvider(ctx, cloudName ?? "");
  return PROVIDERS[cms];
}

/**
 * The event type of a cache-refresh webhook delivery: Contentful names it in the
 * X-Contentful-Topic header, Sanity in body.type (or the sanity-operation header),
 * Storyblok in body.action; generic webhooks ignore it.
 */
export function webhookEventType(
  provider: WebhookProvider,
  headers: Headers,
  body: unknown,
): string | null {
  const field = (name: string): string | null => {
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const v = (body as Record<string, unknown>)[name];
      if (typeof v === "string" && v.length > 0) return v.slice(0, 200);
    }
    return null;
  };
  switch (provider) {
    case "contentful":
      return headers.get("x-contentful-topic")?.slice(0, 200) ?? field("type") ?? null;
    case "sanity":
      return field("type") ?? headers.get("sanity-operation")?.slice(0, 200) ?? field("event");
    case "storyblok":
      return field("action") ?? field("event");
    case "generic":
      return null;
  }
}
