/** Which leaves of a JSON document differ from another's, by dotted path (for highlighting). */
export function changedPaths(a: unknown, b: unknown, path = "", out = new Set<string>()) {
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) {
      changedPaths(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
        out,
      );
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) out.add(path);
  return out;
}
