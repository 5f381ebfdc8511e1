/**
 * OpenTelemetry (issue 23 item 6): main.ts in a subprocess with OTEL_DENO=true exports its
 * spans over OTLP/HTTP (JSON) to a loopback receiver; an edge request's span carries the
 * tenant, the cache outcome, the status and the upstream's status and time (none of them
 * the query string), and the upstream request is its child span. Embedded database.
 */
import { assert, assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { edgeFetch, type Instance, signUp, startInstance, stop } from "./instances.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: AnyValue }[];
};

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.doubleValue);
};

/** A loopback OTLP/HTTP receiver: collects the spans of every POST /v1/traces. */
function startReceiver() {
  const spans: OtlpSpan[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/v1/traces") {
      const body = await req.json();
      for (const rs of body.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
    } else await req.body?.cancel();
    return Response.json({});
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, spans, close: () => server.shutdown() };
}

Deno.test({
  name: "with OTEL_DENO=true an edge request's span reaches an OTLP receiver with its attributes",
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  async fn() {
    const receiver = startReceiver();
    const up = startUpstream();
    up.route("/item", () => Response.json({ ok: true }));
    const dir = await Deno.makeTempDir();
    let inst: Instance | null = null;
    try {
      inst = await startInstance({
        KV_PATH: `${dir}/kv.sqlite3`,
        DATA_DIR: `${dir}/data`,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        PROXY_DOMAIN: "localhost:8000",
        ALLOW_PRIVATE_UPSTREAMS: "true",
        OTEL_DENO: "true",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: "cachely-test",
        OTEL_DENO_CONSOLE: "ignore",
      });
      const owner = await signUp(inst);
      const slug = `otel-${crypto.randomUUID().slice(0, 8)}`;
      const created = await owner.req(inst, "POST", "/api/tenants", {
        slug,
        cms: "generic",
        apiOrigin: up.url,
      });
      assertEquals(created.status, 201, created.text);
      const host = `${slug}.localhost:8000`;
      assertEquals((await edgeFetch(inst, host, "/~api/item?secret=s3cr3t")).status, 200);
      assertEquals((await edgeFetch(inst, host, "/~api/item?secret=s3cr3t")).status, 200);

      const ours = () => receiver.spans.filter((s) => attr(s, "cachely.tenant") === slug);
      // spans are exported in batches: wait for them, then make the process flush on exit
      for (let i = 0; i < 50 && ours().length < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      if (ours().length < 2) {
        await stop(inst);
        inst = null;
      }
      const spans = ours();
      const miss = spans.find((s) => attr(s, "cachely.cache") === "MISS");
      const hit = spans.find((s) => attr(s, "cachely.cache") === "HIT");
      assert(
        miss && hit,
        `a MISS and a HIT span: ${JSON.stringify(spans.map((s) => s.attributes))}`,
      );
      assertEquals(Number(attr(miss, "http.response.status_code")), 200, "set by Deno");
      assertEquals(attr(miss, "cachely.upstream.status_code"), 200);
      assertEquals(attr(miss, "cachely.kind"), "api");
      assert(Number(attr(miss, "cachely.upstream.duration_ms")) >= 0);
      assertEquals(attr(hit, "cachely.upstream.status_code"), undefined, "a hit made no request");
      const child = receiver.spans.find((s) => s.parentSpanId === miss.spanId);
      assert(child, "the upstream request is a child span of the request's span");
      assertEquals(child.name, "upstream GET");
      assertEquals(attr(child, "url.path"), "/item");
      assertEquals(attr(child, "http.response.status_code"), 200);
      // Nothing Cachely sets carries the query string (Deno's own url.full and url.query do:
      // docs/operations.md "Traces" says how a collector drops them).
      const ourAttrs = receiver.spans.flatMap((s) =>
        (s.attributes ?? []).filter((a) =>
          a.key.startsWith("cachely.") || s.parentSpanId === miss.spanId
        )
      );
      assert(ourAttrs.length >= 8, "attributes were collected");
      assert(!JSON.stringify(ourAttrs).includes("s3cr3t"), "no query string in our attributes");
    } finally {
      if (inst) await stop(inst);
      await up.close();
      await receiver.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
