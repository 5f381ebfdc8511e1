import type { ProviderKindDefinition } from "./types.js";
export declare const cloudinary: ProviderKindDefinition<"cloudinary">;
