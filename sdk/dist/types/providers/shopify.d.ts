import type { ProviderKindDefinition } from "./types.js";
export declare const shopify: ProviderKindDefinition<"shopify">;
