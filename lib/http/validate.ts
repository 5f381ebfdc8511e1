/** Request parsing: every body and query goes through a zod schema; failures are 400s naming the field. */
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import { ApiError, badRequest } from "../errors.ts";
import { findBadText, str } from "../base/text.ts";
import { readBounded } from "../net/bounded_body.ts";

export type FieldIssue = { path: string; message: string };

/** Turns a zod error into the API's 400 with the first offending field in the message. */
export function zodToApiError(error: z.ZodError): ApiError {
  const fields: FieldIssue[] = error.issues.map((i) => ({
    path: i.path.map(String).join(".") || "(body)",
    message: i.message,
  }));
  const first = fields[0];
  return badRequest(`Invalid ${first.path}: ${first.message}`, { fields });
}

/** 400 naming the first string or key holding NUL or a lone surrogate (text.ts). */
export function refuseBadText(value: unknown): void {
  const bad = findBadText(value);
  if (bad !== null) {
    throw badRequest(`Invalid ${bad.path}: ${bad.message}`, { fields: [bad] });
  }
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  refuseBadText(value);
  const r = schema.safeParse(value);
  if (!r.success) throw zodToApiError(r.error);
  return r.data;
}

/** Reads a JSON body (bounded) and parses it; malformed JSON is a 400, never a 500. */
export async function parseJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  maxBytes = 256 * 1024,
): Promise<z.output<S>> {
  const text = await requestBodyText(c, maxBytes);
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("Invalid body: malformed JSON");
    }
  }
  return parseWith(schema, value);
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}

/**
 * The request's body text, read once per request (the mount parses a declared body; a handler
 * that parses it again gets the same text).
 */
const bodyTexts = new WeakMap<Request, Promise<string>>();
function requestBodyText(c: Context, maxBytes: number): Promise<string> {
  let text = bodyTexts.get(c.req.raw);
  if (!text) {
    const idleMs = c.get("services").config.bodyIdleTimeoutMs;
    bodyTexts.set(c.req.raw, text = readBodyText(c.req.raw, maxBytes, idleMs));
  }
  return text;
}

/**
 * Reads at most maxBytes of a request body; larger bodies are a 413, a stalled one a 408: a
 * client that sends nothing for `idleMs` (BODY_IDLE_TIMEOUT_MS, 30 s) is answered 408 and its
 * body dropped (a slow client must not hold a handler, its memory and its connection open).
 * A declared Content-Length over the bound is refused unread; a chunked or lying one is counted
 * while streaming (lib/net/bounded_body.ts) and cut at the bound.
 */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  idleMs: number,
): Promise<Uint8Array> {
  refuseDeclaredOver(req, maxBytes);
  const read = await readBounded(req.body, maxBytes, {
    over: "refuse",
    idleMs,
    onIdle: () => new ApiError(408, "request_timeout", `No body bytes for ${idleMs / 1000} s`),
  });
  if (read.tooLarge) throw payloadTooLarge(maxBytes);
  return read.bytes;
}

/** The body as text, read as readBodyBytes reads it. */
export async function readBodyText(
  req: Request,
  maxBytes: number,
  idleMs: number,
): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, maxBytes, idleMs));
}

/** 413 when the request declares a Content-Length over maxBytes (its body is never read). */
export function refuseDeclaredOver(req: Request, maxBytes: number): void {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw payloadTooLarge(maxBytes);
}

function payloadTooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", `Body exceeds ${maxBytes} bytes`);
}

/** Longer than any slug, id or secret we issue; a longer path parameter is a 400. */
export const PATH_PARAM_MAX = 512;
const pathParam = str().max(PATH_PARAM_MAX);

/**
 * Every path parameter through str() before access checks and handlers see it: NUL, a
 * lone surrogate or an oversized value is a 400 naming the parameter, never a query
 * that fails in PostgreSQL (a 500).
 */
export const checkPathParams: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
    const r = pathParam.safeParse(value);
    if (!r.success) {
      const message = r.error.issues[0].message;
      throw badRequest(`Invalid ${name}: ${message}`, { fields: [{ path: name, message }] });
    }
  }
  await next();
};

/** The largest PostgreSQL integer (serial ids). */
export const INT4_MAX = 2_147_483_647;

/** Positive integer path parameter within int4, else 400 naming it. */
export function intParam(c: Context, name: string): number {
  const raw = c.req.param(name) ?? "";
  if (!/^[1-9]\d{0,9}$/.test(raw)) throw badRequest(`Invalid ${name}: must be a positive integer`);
  const n = Number(raw);
  // Path ids are serial (int4) keys: a larger one made PostgreSQL fail the query (500).
  if (n > INT4_MAX) throw badRequest(`Invalid ${name}: must be a positive integer`);
  return n;
}
