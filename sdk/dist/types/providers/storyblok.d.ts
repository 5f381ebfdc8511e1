import { type ProviderKindDefinition } from "./types.js";
export declare const storyblok: ProviderKindDefinition<"storyblok">;
