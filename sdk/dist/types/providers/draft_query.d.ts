/**
 * Queries as the most liberal CMS would parse them, for the draft checks of the kinds
 * (sdk/drafts.ts compiles them). Detection is deliberately wider than the CMS's own
 * parsing: names in any case, percent-encoded (once or more), `+` for space, `;` as a
 * separator, an `=` hidden in an encoded name, repeated parameters.
 *
 * @module
 */
/** Why a visitor's request was refused: the parameter (or `path`) and a sentence. */
export type DraftRefusal = {
    param: string;
    message: string;
};
/** A query parameter as a liberal parser would see it: lower-case name, decoded value. */
export type CanonicalPair = {
    name: string;
    raw: string;
    value: string;
};
/** Decodes `+` and percent escapes until stable (a double-encoded name is still found). */
export declare function decodeFully(s: string): string;
/**
 * The pairs of a raw query (without `?`) as the most liberal server would read them:
 * split on `&` and `;`, decoded until stable, an `=` found inside a decoded name splits it.
 */
export declare function canonicalPairs(raw: string): CanonicalPair[];
/** The visitor-facing parameter name for a message: as sent, decoded. */
export declare function shown(p: CanonicalPair): string;
