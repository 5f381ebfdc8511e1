import type { ProviderKindDefinition } from "./types.js";
export declare const contentful: ProviderKindDefinition<"contentful">;
