/**
 * One error class for the whole API. Every API error response has the shape
 * `{ error: { code, message, details? } }` (docs/decisions.md).
 */
export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toJSON(): { error: { code: string; message: string; details?: ErrorDetails } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }

  toResponse(): Response {
    return Response.json(this.toJSON(), {
      status: this.status,
      headers: this.headers,
    });
  }
}

export const badRequest = (message: string, details?: ErrorDetails) =>
  new ApiError(400, "bad_request", message, details);
export const unauthorized = (message = "Authentication required") =>
  new ApiError(401, "unauthorized", message);
export const forbidden = (message = "Forbidden", code = "forbidden") =>
  new ApiError(403, code, message);
export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
export const conflict = (message: string) => new ApiError(409, "conflict", message);
export const tooManyRequests = (retryAfterSeconds: number, message = "Too many requests") =>
  new ApiError(429, "rate_limited", message, { retryAfter: retryAfterSeconds }, {
    "retry-after": String(retryAfterSeconds),
  });
