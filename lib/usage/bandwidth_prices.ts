/**
 * What a CMS charges per GB of asset bandwidth beyond a plan (USD), where it publishes a
 * price: the basis of the estimated savings figure (`estimatedSavingsUsd`). A kind without a
 * published price shows no money figure rather than a guessed one.
 */
import type { ProviderKind } from "../providers/mod.ts";

export const CMS_BANDWIDTH_USD_PER_GB: Partial<Record<ProviderKind, number>> = {
  // Contentful's usage limits (Lite plan, 2025): extra asset bandwidth 0.15 USD per GB.
  contentful: 0.15,
  // Prismic: CDN bandwidth over a paid plan's allowance, 0.10 USD per GB.
  prismic: 0.10,
};
