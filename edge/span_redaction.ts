/**
 * Secrets out of the runtime's own spans (docs/operations.md "Traces"). With tracing on
 * (OTEL_DENO=true; Deno Deploy), Deno opens a span for every request Deno.serve answers and for
 * every fetch, and records `url.full`, `url.path` and `url.query` as sent: the cache-refresh
 * webhook's path secret, the publish webhook's `?secret=`, the mailed reset, verify and invite
 * tokens, a visitor's preview token. A value set again from code is appended, not replaced
 * (Deno 2.5.7 and 2.9.6), so it cannot be overwritten in the handler. Deno records them through
 * the span object's own `setAttribute` (ext/telemetry/util.ts), so that method of the runtime's
 * span class is wrapped here, once, before anything is served: what reaches the exporter is
 * already redacted. Every query value goes, and the path below the webhook's id.
 * tests/otel_test.ts checks it on each runtime against a loopback OTLP receiver; should a
 * runtime record them some other way, that test fails.
 */

export const REDACTED = "REDACTED";

/** The attributes that carry a URL, its path or its query (current and older conventions). */
const URL_KEYS = new Set(["url.full", "http.url"]);
const PATH_KEYS = new Set(["url.path"]);
const QUERY_KEYS = new Set(["url.query"]);
const TARGET_KEYS = new Set(["http.target"]);

/** Paths with a secret segment: the part after the match is redacted. */
const SECRET_PATHS = [/^\/+api\/+webhooks\/+cache-refresh\/+[^/]*\/+/i];

/** `a=1&token=x&flag` -> `a=REDACTED&token=REDACTED&REDACTED`: names stay, values go. */
function redactQuery(query: string): string {
  if (query === "") return "";
  return query.split("&").map((part) => {
    const eq = part.indexOf("=");
    return eq === -1 ? REDACTED : `${part.slice(0, eq)}=${REDACTED}`;
  }).join("&");
}

function redactPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch { /* matched as sent */ }
  for (const re of SECRET_PATHS) {
    const m = re.exec(decoded);
    if (m && decoded.length > m[0].length) return `${m[0]}${REDACTED}`;
  }
  return path;
}

/** A path with its query (`/a?b=c`, http.target). */
function redactTarget(target: string): string {
  const q = target.indexOf("?");
  return q === -1
    ? redactPath(target)
    : `${redactPath(target.slice(0, q))}?${redactQuery(target.slice(q + 1))}`;
}

/** A whole URL: no user info, no fragment, the path and query redacted. */
function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return REDACTED;
  }
  const query = u.search === "" ? "" : `?${redactQuery(u.search.slice(1))}`;
  return `${u.protocol}//${u.host}${redactPath(u.pathname)}${query}`;
}

/** An attribute's value as it may be exported. */
export function redactAttribute(key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (URL_KEYS.has(key)) return redactUrl(value);
  if (PATH_KEYS.has(key)) return redactPath(value);
  if (QUERY_KEYS.has(key)) return redactQuery(value);
  if (TARGET_KEYS.has(key)) return redactTarget(value);
  return value;
}

type SpanLike = {
  setAttribute(key: string, value: unknown): unknown;
  setAttributes(attributes: Record<string, unknown>): unknown;
  isRecording(): boolean;
};
const WRAPPED = Symbol.for("cachely.spanRedaction");
/** Where npm:@opentelemetry/api 1.x keeps its global providers. */
const OTEL_API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/**
 * Wraps the runtime span class's setAttribute and setAttributes when the runtime traces; true
 * when they are (or already were) wrapped. Deno registers its providers with the OpenTelemetry
 * API's global only when tracing is on (and a span started with tracing off throws on 2.5.7).
 * The probe span is never ended, so never exported.
 */
export function redactRuntimeSpans(): boolean {
  if (!(OTEL_API_GLOBAL in globalThis)) return false;
  const provider = Deno.telemetry?.tracerProvider;
  if (!provider) return false;
  const probe = provider.getTracer("cachely-redaction").startSpan("probe") as unknown as SpanLike;
  if (!probe.isRecording()) return false;
  const proto = Object.getPrototypeOf(probe) as SpanLike & { [WRAPPED]?: true };
  if (proto[WRAPPED]) return true;
  const setAttribute = proto.setAttribute;
  const setAttributes = proto.setAttributes;
  proto.setAttribute = function (key, value) {
    return setAttribute.call(this, key, redactAttribute(key, value));
  };
  proto.setAttributes = function (attributes) {
    const safe: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(attributes ?? {})) safe[k] = redactAttribute(k, v);
    return setAttributes.call(this, safe);
  };
  proto[WRAPPED] = true;
  return true;
}
