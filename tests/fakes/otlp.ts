/**
 * A loopback OTLP/HTTP (JSON) receiver for the OpenTelemetry tests: collects the spans of every
 * POST /v1/traces, and every body as received (to search for what must never be exported).
 */
export type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number };
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: AnyValue }[];
};

/** A span attribute's value (the first one of that key), as a string or a number. */
export const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.doubleValue);
};

export function startReceiver() {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    bodies.push(text);
    if (req.method === "POST" && url.pathname === "/v1/traces") {
      const body = JSON.parse(text);
      for (const rs of body.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
    }
    return Response.json({});
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    spans,
    bodies,
    close: () => server.shutdown(),
  };
}
