/** Helpers for HTML form posts to page routes (the no-JavaScript path of a form). */
import type { Context } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { forbidden } from "../../lib/errors.ts";
import { isSameOrigin } from "../../lib/http/origin.ts";
import { readBodyText } from "../../lib/http/validate.ts";

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
