import type { ProviderKindDefinition } from "./types.js";
export declare const generic: ProviderKindDefinition<"generic">;
