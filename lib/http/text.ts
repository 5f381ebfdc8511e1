/**
 * The one string type of every request schema. U+0000 is refused with a 400: PostgreSQL
 * text and jsonb cannot hold it, so it used to surface as a 500. parseWith() also refuses
 * NUL anywhere in a parsed value (keys, e-mail and URL formats, free JSON such as event
 * metadata), so a schema that forgets str() still cannot let one through.
 */
import { z } from "zod";

export const NUL_MESSAGE = "must not contain NUL characters";

/** `z.string()` without NUL; chain `.min()`, `.trim()`, `.regex()` … as usual. */
export function str() {
  return z.string().refine((v) => !v.includes("\0"), NUL_MESSAGE);
}

/** The dotted path of the first string (value or key) holding NUL, or null. Iterative: no depth limit. */
export function findNul(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\0")) return path || "(body)";
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (k.includes("\0")) return p;
        stack.push([child, p]);
      }
    }
  }
  return null;
}
