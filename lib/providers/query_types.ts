/**
 * Which asset types lose their query (the tenant's `stripQueryTypes`, docs/providers.md "Type
 * routing and query handling"): a file class (image, video, audio, font, document, other) or
 * an extension with its dot (`.pdf`). Where a provider keeps the query, every rendition or
 * cache-busting parameter is its own cache entry and its own origin fetch; a listed type is
 * keyed and fetched without it. Pure, shared by the tenant schema and the edge.
 */
import { fileClassOf } from "../../sdk/providers.ts";

/** A class name, or `.` and an extension of letters and digits (lowercase). */
export const STRIP_QUERY_TYPE = /^(?:image|video|audio|font|document|other|\.[a-z0-9]{1,16})$/;

/** Whether a path's query is stripped, compiled once per list; null when nothing is. */
export function compileStripQuery(
  types: readonly string[] | undefined,
): ((path: string) => boolean) | null {
  if (!types?.length) return null;
  const classes = new Set<string>(types.filter((t) => !t.startsWith(".")));
  const exts = new Set(types.filter((t) => t.startsWith(".")).map((t) => t.slice(1)));
  return (path) => {
    if (classes.has(fileClassOf(path))) return true;
    if (exts.size === 0) return false;
    const slash = path.lastIndexOf("/");
    const dot = path.lastIndexOf(".");
    return dot > slash && exts.has(path.slice(dot + 1).toLowerCase());
  };
}
