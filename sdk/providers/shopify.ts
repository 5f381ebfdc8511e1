/**
 * Shopify: a store domain (`x.myshopify.com` or the store's own); store files under
 * `/cdn/shop/` on it, and the same files on cdn.shopify.com. The Storefront API token goes in
 * a header.
 *
 * @module
 */
import type { SourceRule } from "../rewrite.ts";
import { HOSTNAME_RE, isHostname, NO_ROUTES } from "./shared.ts";
import type { ProviderConfig, ProviderKindDefinition } from "./types.ts";

function storeSources(st: string): SourceRule[] {
  return [
    { host: st, path: "cdn/shop", clean: "/cdn/shop" },
    { host: "cdn.shopify.com", path: "s/files(?:/\\d+)+", clean: "/cdn/shop" },
    { host: "cdn.shopify.com", path: "videos", clean: "/cdn/shop/videos" },
  ];
}

function origins(cfg: Pick<ProviderConfig, "storeDomain">) {
  const st = cfg.storeDomain;
  if (!st) return { api: null, assets: [] };
  return {
    api: `https://${st}/api`,
    assets: [{ role: "store files", url: `https://${st}/cdn/shop` }],
  };
}

export const shopify: ProviderKindDefinition<"shopify"> = {
  kind: "shopify",
  label: "Shopify",
  fields: {
    storeDomain: {
      rule: { re: HOSTNAME_RE, message: "must be a store domain such as shop.myshopify.com" },
      label: "Store domain",
      hint: "x.myshopify.com or the store's own domain",
      placeholder: "acme.myshopify.com",
    },
  },
  required: ["storeDomain"],
  sdkRequired: ["storeDomain"],
  origins,
  sources: (cfg) => cfg.storeDomain ? storeSources(cfg.storeDomain) : [],
  /** `/cdn/shop/...` on the store domain. */
  routes(cfg) {
    const st = cfg.storeDomain;
    if (!st) return NO_ROUTES;
    return {
      route(path) {
        if (!path.startsWith("/cdn/shop/") || path.length <= 10) return null;
        return { origin: `https://${st}`, path, query: "keep", role: "store files" };
      },
    };
  },
  samplePath: "/files/hero.jpg?v=1700000000&width=800",
  upstream: {
    assetHosts: [],
    defaultApiOrigin: null, // https://<store>/api, store-specific
    defaultAuthMode: "header",
    defaultAuthParam: "X-Shopify-Storefront-Access-Token",
  },
  demo: {
    provider: { cms: "shopify", storeDomain: "demo-store.myshopify.com" },
    apiOrigin: "https://demo-store.myshopify.com/api",
    path: "/2024-10/graphql.json?query=%7Bproducts(first%3A2)%7Bnodes%7Btitle%7D%7D%7D",
    body: {
      data: {
        products: {
          nodes: [
            {
              title: "Canvas tote",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000",
              },
              descriptionHtml:
                '<p><img src="//demo-store.myshopify.com/cdn/shop/files/tote-detail.png?width=600"></p>',
            },
            {
              title: "Enamel mug",
              featuredImage: {
                url: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/mug.png?v=1700000001",
              },
            },
          ],
        },
      },
    },
    assetUrl: "https://cdn.shopify.com/s/files/1/0262/4071/2726/files/tote.jpg?v=1700000000",
  },
  setup: {
    packages: ["@shopify/hydrogen", "@shopify/storefront-api-client", "shopify-buy"],
    envName: "SHOPIFY_STORE_DOMAIN",
    secrets: ["SHOPIFY_STOREFRONT_ACCESS_TOKEN"],
  },
  sdk: {
    // cdn.shopify.com serves every store: its forms whatever the store; else the store domain.
    hostSources: (host) =>
      host === "cdn.shopify.com"
        ? storeSources("any.myshopify.com").filter((r) => r.host === "cdn.shopify.com")
        : storeSources(host),
    // The tenant's apiOrigin is `https://<store>/api`: the store's `/api/<version>/graphql.json`
    // is proxied as `/~api/<version>/graphql.json`, not `/~api/api/...`.
    apiOriginOfHost: (host) => isHostname(host) ? origins({ storeDomain: host }).api : null,
  },
};
