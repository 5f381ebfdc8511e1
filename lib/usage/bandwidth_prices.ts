/**
 * What a CMS charges per GB of asset bandwidth beyond a plan (USD), where it publishes a
 * price (each kind's `bandwidthUsdPerGb`, sdk/providers/<kind>.ts): the basis of the
 * estimated savings figure (`estimatedSavingsUsd`). A kind without a published price shows
 * no money figure rather than a guessed one.
 */
import { PROVIDER_LIST, type ProviderKind } from "../providers/mod.ts";

export const CMS_BANDWIDTH_USD_PER_GB: Partial<Record<ProviderKind, number>> = Object.fromEntries(
  PROVIDER_LIST.flatMap((d) => "bandwidthUsdPerGb" in d ? [[d.kind, d.bandwidthUsdPerGb]] : []),
);
