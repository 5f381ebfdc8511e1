import type { ProviderKindDefinition } from "./types.js";
export declare const imgix: ProviderKindDefinition<"imgix">;
