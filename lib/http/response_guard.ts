/**
 * The last guard every answer passes before the runtime writes it (lib/http/host_router.ts):
 * a header value that breaks the rule of lib/http/header_value.ts would end the process on
 * Deno 2.9 (a panic in its HTTP/1 writer). Upstream values were dropped where they entered,
 * so what is left here is ours, built from the request (a path, a query, a form field): the
 * request is refused, 400 naming the header. A hit's clone of a checked template, and an answer
 * whose pairs edge/http.ts responseWith checked as it set them, are not scanned again
 * (markChecked), so the hit path pays nothing.
 */
import { isMarkedChecked, unsafeHeaderNames } from "./header_value.ts";
import { ApiError } from "../errors.ts";

export function guardResponse(res: Response): Response {
  if (isMarkedChecked(res)) return res;
  const bad = unsafeHeaderNames(res.headers);
  if (bad.length === 0) return res;
  res.body?.cancel().catch(() => {});
  const message = `The response header ${bad[0]} would carry a control character ` +
    `(from the request's path, query, Host or a form field): refused`;
  return new ApiError(400, "bad_request", message, { headers: bad }, {
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  }).toResponse();
}
