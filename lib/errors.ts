/**
 * One error class for the whole API. Every API error response has the shape
 * `{ error: { code, message, details? } }` (docs/decisions.md).
 */
export type ErrorDetails = Record<string, unknown>;

/**
 * Every `error.code` the API answers, with what it means: a closed list, so a new code is a
 * deliberate, documented addition (OpenAPI lists them; docs/decisions.md "Errors and input").
 */
export const ERROR_CODES = {
  bad_request: "The body, query or a path parameter is invalid; `details.fields` names each field.",
  unauthorized: "No valid session or token.",
  forbidden: "Authenticated, but the role or plan does not allow this.",
  not_found: "The resource does not exist or is not visible to you (never tells which).",
  method_not_allowed: "The path exists, the method does not.",
  conflict: "The change conflicts with the current state (duplicate, wrong status, stale version).",
  rate_limited: "Too many requests; `details.retryAfter` and Retry-After say when to retry.",
  payload_too_large: "The request body is over its limit.",
  request_timeout: "The client stopped sending its request body (idle for 30 s).",
  unavailable: "The database cannot be reached; retry after Retry-After.",
  internal: "An unexpected error; logged with a request id, never detailed.",
  invalid_path: "The request path is malformed (edge).",
  request_too_large: "The request body or headers are over the edge's limit.",
  unknown_tenant: "No tenant or custom domain answers on this host (edge).",
  quota_exceeded:
    "The account's monthly plan allowance is used up (edge); resets on the 1st (UTC).",
  bot_blocked: "A blocked bot user agent (edge).",
  type_not_allowed: "The asset's content type is not in the tenant's allowedTypes (edge).",
  api_not_configured: "The tenant has no API origin, so /~api/ cannot be proxied (edge).",
  upstream_credentials: "The tenant's stored upstream credential cannot be used (edge).",
  upstream_status: "The asset origin answered an error status (edge).",
  http_error: "A framework-level HTTP error (malformed request line or headers).",
  response_schema_mismatch:
    "A success body did not match its declared schema (VALIDATE_API_RESPONSES).",
  csrf_failed: "A cookie-authenticated write without our Origin.",
  insufficient_scope:
    "The personal access token's scopes (read, write, admin) do not allow this route.",
  invalid_credentials: "Wrong email or password.",
  wrong_password: "The current password given for a change is wrong.",
  password_policy: "The new password is too short or too common.",
  user_blocked: "The account is blocked by a master admin.",
  email_unverified: "The action needs a confirmed email address.",
  verification_wrong_account: "The confirmation link belongs to another account.",
  already_verified: "The email address is already confirmed.",
  verification_token_invalid: "The email confirmation link is not valid.",
  verification_token_expired: "The email confirmation link has expired.",
  reset_token_invalid: "The password reset link is not valid.",
  reset_token_expired: "The password reset link has expired.",
  oauth_error: "The sign-in provider refused or failed.",
  invite_used: "The invite was already accepted.",
  invite_revoked: "The invite was revoked.",
  invite_expired: "The invite has expired.",
  invite_email_mismatch: "The invite is addressed to another email.",
  plan_limit: "The plan's limit is reached (tenants); `details` links the plans.",
  plan_required:
    "The plan does not include this (tenants, custom domains); `details` links the plans.",
  billing_not_configured: "Payments are not enabled on this server.",
  no_billing_customer: "The account has no payment-provider customer yet.",
  already_subscribed: "The account already has an active subscription.",
  payment_provider_error: "The payment provider failed.",
  webhook_not_configured: "The webhook's secret is not configured on this server.",
  invalid_signature: "A webhook signature did not verify.",
  ingest_not_configured: "INGEST_KEY is not set.",
  invalid_ingest_key: "The X-Ingest-Key is wrong.",
  usage_unavailable: "Usage cannot be read right now.",
  bad_gateway: "The upstream answered with something unusable.",
  upstream_error: "The upstream failed or answered an error status.",
  upstream_refused: "The upstream address is not allowed (SSRF guard).",
  upstream_timeout: "The upstream did not answer in time.",
  refresh_failed: "A cache refresh could not be completed.",
  product_domain: "The URL is a Cachely host, not your website.",
  unsafe_url: "The URL resolves to an address that is not allowed.",
  timeout: "A fetch of a user-supplied URL timed out.",
  fetch_failed: "A fetch of a user-supplied URL failed.",
  too_many_redirects: "A fetch of a user-supplied URL redirected too often.",
  bad_redirect: "A redirect pointed somewhere not allowed.",
  not_html: "The page fetched is not HTML.",
  ai_not_configured: "No model is configured (OPENAI_API_KEY).",
  token_limit_exceeded: "The tenant's AI token cap is reached.",
  transform_failed: "The transform could not be applied.",
  model_timeout: "The model did not answer in time.",
  model_rate_limited: "The model provider rate-limited the call.",
  model_error: "The model call failed.",
  malformed_output: "The model's answer did not have the expected shape.",
  experiment_archived: "The experiment is archived.",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: ErrorDetails } } {
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
export const forbidden = (message = "Forbidden", code: ErrorCode = "forbidden") =>
  new ApiError(403, code, message);
/** Where the plans are shown: every refusal that names a plan links there. */
/** Seconds a client is asked to wait before retrying a 503 (database, KV, start-up). */
export const RETRY_AFTER_SECONDS = 5;

export const PLAN_PAGE = "/account/billing#plans";
/** A 403 naming a plan, with the plan page in `details.planPage` and in the message. */
export const planRefusal = (message: string, code: "plan_limit" | "plan_required") =>
  new ApiError(403, code, `${message} (plans: ${PLAN_PAGE})`, { planPage: PLAN_PAGE });
export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
export const conflict = (message: string) => new ApiError(409, "conflict", message);
export const tooManyRequests = (retryAfterSeconds: number, message = "Too many requests") =>
  new ApiError(429, "rate_limited", message, { retryAfter: retryAfterSeconds }, {
    "retry-after": String(retryAfterSeconds),
  });
