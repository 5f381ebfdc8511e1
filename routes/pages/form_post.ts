/**
 * Helpers for HTML form posts to page routes (the no-JavaScript path of a form).
 * Dashboard forms post to the form bridge (forms.tsx), which calls the API route itself. The few
 * pages that answer their own post (log-in, sign-up, forgot and reset password: they work
 * without a session or set its cookie) mirror an API route and parse its declared body schema
 * (the one the route declares, exported beside the lib function both call) with formInput: the
 * API's own validate path, so the page refuses exactly what the API refuses, with its message.
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../lib/http/env.ts";
import { ApiError, forbidden } from "../../lib/errors.ts";
import { isSameOrigin } from "../../lib/http/origin.ts";
import { parseWith, readBodyText } from "../../lib/http/validate.ts";

const FORM_MAX_BYTES = 16 * 1024;

/**
 * Refuses a form posted from another site (login CSRF): the browser's Origin header, when
 * present, must be our full origin (lib/http/origin.ts). Session-authenticated writes are checked in lib/http/auth.ts;
 * this covers the forms that work without a session.
 */
export function requireSameOriginForm(c: Context<AppEnv>): void {
  if (!isSameOrigin(c, c.get("services").config.publicUrl)) throw crossSite();
}

const crossSite = () => forbidden("Cross-site request refused", "csrf_failed");

/** The named fields of a urlencoded form body, as strings ("" when missing). */
export async function readFormFields<K extends string>(
  c: Context<AppEnv>,
  names: readonly K[],
): Promise<Record<K, string>> {
  const idleMs = c.get("services").config.bodyIdleTimeoutMs;
  const params = new URLSearchParams(await readBodyText(c.req.raw, FORM_MAX_BYTES, idleMs));
  const out = {} as Record<K, string>;
  for (const n of names) out[n] = params.get(n) ?? "";
  return out;
}

/**
 * Form fields parsed with the body schema of the API route the form mirrors, the way the mount
 * parses that route's JSON body (lib/http/validate.ts parseWith): the parsed body, or the API's
 * refusal (400 naming the field) for the page to show.
 */
export function formInput<S extends z.ZodType>(
  schema: S,
  fields: Record<string, string>,
): { ok: true; body: z.output<S> } | { ok: false; error: ApiError } {
  try {
    return { ok: true, body: parseWith(schema, fields) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err };
    throw err;
  }
}
