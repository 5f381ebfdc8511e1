/**
 * The edge's OpenTelemetry attributes (docs/operations.md "Traces"). With
 * OTEL_DENO=true Deno opens a span for every request Deno.serve answers and exports it over
 * OTLP; Deno registers its tracer with npm:@opentelemetry/api, so the active span here is
 * that request span. The edge adds what only it knows: the tenant's slug, the cache outcome,
 * the upstream's status and time; and each upstream request is a child span (the edge's own
 * HTTP/1.1 client is not traced by Deno). Never secrets, never query strings.
 *
 * Loaded only when tracing is on (lib/bootstrap.ts imports this module then): an edge
 * without it never calls the API.
 */
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { EdgeTracing } from "./types.ts";

export function createTracing(): EdgeTracing {
  const tracer = trace.getTracer("cachely-edge");
  return {
    annotate(a) {
      const span = trace.getActiveSpan();
      if (!span) return;
      span.setAttribute("cachely.tenant", a.tenant);
      span.setAttribute("cachely.cache", a.cache ?? "none");
      span.setAttribute("cachely.kind", a.kind);
      // Deno sets http.response.status_code itself once the response is sent; its url.full,
      // url.path and url.query reach the exporter redacted (edge/span_redaction.ts).
      if (a.upstreamRequests > 0) {
        span.setAttribute("cachely.upstream.requests", a.upstreamRequests);
        span.setAttribute("cachely.upstream.duration_ms", Math.round(a.upstreamMs * 100) / 100);
        if (a.upstreamStatus !== undefined) {
          span.setAttribute("cachely.upstream.status_code", a.upstreamStatus);
        }
      }
    },
    upstream(url, method, call) {
      // The URL without its query (it can carry preview tokens or visitor data).
      return tracer.startActiveSpan(`upstream ${method}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": method,
          "server.address": url.hostname,
          "url.path": url.pathname,
        },
      }, async (span) => {
        try {
          const r = await call();
          span.setAttribute("http.response.status_code", r.status);
          if (r.kind === "error") {
            span.setStatus({ code: SpanStatusCode.ERROR, message: r.code });
          }
          return r;
        } finally {
          span.end();
        }
      });
    },
  };
}
