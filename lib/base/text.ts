/**
 * The one string type of every request schema and path parameter. U+0000 and lone UTF-16
 * surrogates are refused with a 400: PostgreSQL text and jsonb cannot hold NUL, and a lone
 * surrogate cannot be encoded as UTF-8 (both used to surface as 500s). parseWith() also
 * refuses them anywhere in a parsed value (keys, e-mail and URL formats, free JSON such as
 * event metadata), so a schema that forgets str() still cannot let one through.
 */
import { z } from "zod";

export const NUL_MESSAGE = "must not contain NUL characters";
export const SURROGATE_MESSAGE = "must be well-formed Unicode (no lone surrogate)";

/** Why a string cannot be stored, or null when it can. */
export function badTextReason(v: string): string | null {
  if (v.includes("\0")) return NUL_MESSAGE;
  if (!v.isWellFormed()) return SURROGATE_MESSAGE;
  return null;
}

/** `z.string()` without NUL or lone surrogates; chain `.min()`, `.trim()`, `.regex()` ... as usual. */
export function str() {
  return z.string().check((ctx) => {
    const reason = badTextReason(ctx.value);
    if (reason) ctx.issues.push({ code: "custom", message: reason, input: ctx.value });
  });
}

/**
 * The dotted path of the first string (value or key) that cannot be stored, with why, or
 * null. Iterative: no depth limit.
 */
export function findBadText(value: unknown): { path: string; message: string } | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      const message = badTextReason(v);
      if (message) return { path: path || "(body)", message };
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        const message = badTextReason(k);
        if (message) return { path: p, message };
        stack.push([child, p]);
      }
    }
  }
  return null;
}
