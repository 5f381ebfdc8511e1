import type { ProviderKindDefinition } from "./types.js";
/** The document types the `q` predicates of a query name. */
export declare function prismicTypes(qs: string[]): string[];
export declare const prismic: ProviderKindDefinition<"prismic">;
