/** The money figure beside "Origin bandwidth saved": none for a CMS without a published price. */
import { Stat } from "./ui.tsx";
import { estimatedSavingsUsd } from "../lib/usage/figures.ts";
import { CMS_BANDWIDTH_USD_PER_GB } from "../lib/usage/bandwidth_prices.ts";
import type { ProviderKind } from "../lib/providers/mod.ts";

export function SavingsStat(
  { cms, savedBytes, period }: { cms: string; savedBytes: number; period?: string },
) {
  const price = CMS_BANDWIDTH_USD_PER_GB[cms as ProviderKind];
  if (price === undefined) return null;
  const usd = `${estimatedSavingsUsd(savedBytes, price).toFixed(2)} USD`;
  return (
    <Stat
      label={`Estimated savings${period ? `, ${period}` : ""} · ${price.toFixed(2)} USD/GB (${
        cms[0].toUpperCase() + cms.slice(1)
      }'s price)`}
      value={<span data-savings={usd}>{usd}</span>}
    />
  );
}
