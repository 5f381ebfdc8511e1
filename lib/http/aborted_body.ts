/**
 * A request body its client stopped sending (the connection closed mid-body): the runtime's
 * read fails with BadResource on Deno 2.9 ("Cannot read body as underlying resource
 * unavailable") and Http on Deno 2.5 ("error reading a body from connection"). The client is
 * gone, so nothing is ours to fix: answered 400 (nobody reads it), logged at info without a
 * stack, never as an unhandled error.
 */
import { ApiError } from "../errors.ts";

export function isAbortedBody(e: unknown): boolean {
  return (e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Http) &&
    /\bbody\b/i.test(e.message);
}

export function abortedBody(): ApiError {
  return new ApiError(400, "bad_request", "The request body ended before its declared length");
}
