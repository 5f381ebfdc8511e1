/**
 * Helpers for HTML form posts to page routes (the no-JavaScript path of a form).
 * Dashboard forms post to the form bridge (forms.tsx), which calls the API route itself. The few
 * pages that answer their own post (log-in, sign-up, forgot and reset password: they work
 * without a session or set its cookie) mirror an API route and parse its declared body schema
 * (the one the route declares, exported beside the lib function both call) with formInput: the
 * API's own validate path, so the page refuses exactly what the API refuses, with its message.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../lib/http/env.ts";
import { ApiError, badRequest } from "../../lib/errors.ts";
import { refuseCrossSite } from "../../lib/http/origin.ts";
import {
  parseWith,
  readBodyBytes,
  readBodyText,
  refuseDeclaredOver,
} from "../../lib/http/validate.ts";

/** The largest body of a page's own form (log-in, sign-up, passwords, banner): 413 past it. */
const FORM_MAX_BYTES = 16 * 1024;
/** The largest dashboard form the bridge (forms.tsx) takes, and so any page post. */
export const BRIDGE_FORM_MAX_BYTES = 256 * 1024;

/**
 * Every page request declaring a body larger than any page form takes is a 413 before a route
 * sees it, also on routes that read no body. The routes that read one bound it again while
 * streaming (a chunked body declares no length).
 */
export const refuseOversizedPageBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  refuseDeclaredOver(c.req.raw, BRIDGE_FORM_MAX_BYTES);
  await next();
};

/**
 * Refuses a form posted from another site (login CSRF): the browser's Origin header, when
 * present, must be our full origin (lib/http/origin.ts). Session-authenticated writes are checked in lib/http/auth.ts;
 * this covers the forms that work without a session.
 */
export function requireSameOriginForm(c: Context<AppEnv>): void {
  refuseCrossSite(c, c.get("services").config.publicUrl);
}

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
 * A urlencoded or multipart form body, read up to maxBytes (413 past it) before it is parsed;
 * a body that is not the form its Content-Type says is a 400.
 */
export async function readForm(c: Context<AppEnv>, maxBytes: number): Promise<FormData> {
  const idleMs = c.get("services").config.bodyIdleTimeoutMs;
  const bytes = await readBodyBytes(c.req.raw, maxBytes, idleMs);
  const type = c.req.header("content-type") ?? "";
  try {
    const body = bytes as Uint8Array<ArrayBuffer>; // a fresh copy (readBounded's concat)
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw badRequest("Invalid body: not a urlencoded or multipart form");
  }
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
