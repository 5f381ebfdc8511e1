import type { ProviderKindDefinition } from "./types.js";
/** The content types a GROQ query filters on (none when it names none it can parse). */
export declare function groqTypes(query: string): string[];
export declare const sanity: ProviderKindDefinition<"sanity">;
