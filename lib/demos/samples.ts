/**
 * Static, realistic samples of what each provider's API returns, from each kind's
 * definition (`demo`, sdk/providers/<kind>.ts): a couple of entries with titles and asset
 * URLs on the provider's real asset host. Pure data.
 */
import { type ProviderKind, tableOf } from "../providers/mod.ts";
import type { DemoSample } from "../../sdk/providers/types.ts";

export const DEMO_SAMPLES: Record<ProviderKind, DemoSample> = tableOf((d) => d.demo);
