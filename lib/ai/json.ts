/**
 * Exact JSON round trips for transformed responses: numbers a double cannot hold
 * as written (int64 ids, `1.0`, `1e2`) are kept as raw JSON text, so a transform
 * changes only the selected strings and never the precision or spelling of a number.
 * Uses JSON.parse source text access and JSON.rawJSON (TC39 json-parse-with-source).
 */
type RawJsonApi = {
  rawJSON(text: string): unknown;
  isRawJSON(v: unknown): boolean;
};
const J = JSON as unknown as JSON & RawJsonApi;

/** JSON.parse that preserves every number whose value would not re-serialize to its source. */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(
    text,
    function (this: unknown, _key: string, value: unknown, ctx?: { source?: string }) {
      if (typeof value === "number" && ctx?.source !== undefined && String(value) !== ctx.source) {
        return J.rawJSON(ctx.source);
      }
      return value;
    } as (this: unknown, key: string, value: unknown) => unknown,
  );
}

/** True for a value made by JSON.rawJSON (a leaf, never walked into). */
export function isRawJson(v: unknown): boolean {
  return J.isRawJSON(v);
}
