/**
 * OpenTelemetry: main.ts in a subprocess with OTEL_DENO=true exports its
 * spans over OTLP/HTTP (JSON) to a loopback receiver; an edge request's span carries the
 * tenant, the cache outcome, the status and the upstream's status and time (none of them
 * the query string), and the upstream request is its child span. Embedded database.
 */
import { assert, assertEquals } from "./assert.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { type Agent, edgeFetch, type Instance, signUp, startInstance, stop } from "./instances.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";
import { attr, startReceiver } from "./fakes/otlp.ts";

type Traced = {
  inst: Instance;
  receiver: ReturnType<typeof startReceiver>;
  owner: Agent;
  slug: string;
  /** Waits (at most 5 s) for `done()`; if it is not, stops the instance so that it flushes. */
  collected(done: () => boolean): Promise<void>;
};

/**
 * main.ts exporting its traces (OTLP/HTTP JSON) to a loopback receiver, embedded database, with
 * a signed-up owner's generic tenant on an upstream that answers /item.
 */
async function withTracedInstance(body: (t: Traced) => Promise<void>) {
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
    const running = inst;
    await body({
      inst: running,
      receiver,
      owner,
      slug,
      async collected(done) {
        // spans are exported in batches: wait for them, then make the process flush on exit
        for (let i = 0; i < 50 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
        if (done()) return;
        inst = null;
        await stop(running);
      },
    });
  } finally {
    if (inst) await stop(inst);
    await up.close();
    await receiver.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name: "with OTEL_DENO=true an edge request's span reaches an OTLP receiver with its attributes",
  sanitizeOps: false, // child processes: their pipes' readers and exit status settle after the test's stop()
  sanitizeResources: false,
  fn: () =>
    withTracedInstance(async ({ inst, receiver, slug, collected }) => {
      const host = `${slug}.localhost:8000`;
      assertEquals((await edgeFetch(inst, host, "/~api/item?secret=s3cr3t")).status, 200);
      assertEquals((await edgeFetch(inst, host, "/~api/item?secret=s3cr3t")).status, 200);

      const ours = () => receiver.spans.filter((s) => attr(s, "cachely.tenant") === slug);
      await collected(() => ours().length >= 2);
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
      // Nothing Cachely sets carries the query string.
      const ourAttrs = receiver.spans.flatMap((s) =>
        (s.attributes ?? []).filter((a) =>
          a.key.startsWith("cachely.") || s.parentSpanId === miss.spanId
        )
      );
      assert(ourAttrs.length >= 8, "attributes were collected");
      assert(!JSON.stringify(ourAttrs).includes("s3cr3t"), "no query string in our attributes");
    }),
});

Deno.test({
  name: "with OTEL_DENO=true no secret in a path or query reaches an exported span",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withTracedInstance(async ({ inst, receiver, owner, slug, collected }) => {
      const secrets: string[] = [];
      // the cache-refresh webhook's URL carries its secret in the path
      const hook = await owner.req(inst, "POST", `/api/tenants/${slug}/cache-refresh-webhooks`, {
        provider: "generic",
      });
      assertEquals(hook.status, 201, hook.text);
      secrets.push(hook.body.secret);
      const hookPath = new URL(hook.body.url).pathname;
      const hookId = hookPath.split("/")[4];
      assertEquals((await owner.req(inst, "POST", hookPath, {})).status, 200);
      // the publish webhook's secret is a query parameter
      const publish = await owner.req(inst, "POST", `/api/tenants/${slug}/webhook-secret`);
      assertEquals(publish.status, 200, publish.text);
      secrets.push(publish.body.secret);
      const published = await owner.req(
        inst,
        "POST",
        `/api/tenants/${slug}/webhook?secret=${publish.body.secret}`,
        {},
      );
      assertEquals(published.status, 200, published.text);
      // the mailed links: reset, verify, invite tokens in the query
      const pages = ["/reset-password", "/verify-email", "/invites/accept"];
      for (const page of pages) {
        const token = `tok${crypto.randomUUID().replaceAll("-", "")}`;
        secrets.push(token);
        const r = await owner.req(inst, "GET", `${page}?token=${token}&x=1`);
        assert(r.status < 500, `${page}: ${r.status}`);
      }
      // a visitor's query on a tenant host (a preview token, say)
      secrets.push("s3cr3tpreview");
      const host = `${slug}.localhost:8000`;
      assertEquals((await edgeFetch(inst, host, "/~api/item?token=s3cr3tpreview")).status, 200);

      const path = (p: string) => receiver.spans.find((s) => attr(s, "url.path") === p);
      const redactedHook = `/api/webhooks/cache-refresh/${hookId}/REDACTED`;
      const all = [redactedHook, ...pages, "/~api/item"];
      await collected(() => all.every(path));
      const exported = receiver.bodies.join("\n");
      for (const secret of secrets) {
        assert(!exported.includes(secret), `a secret was exported: ${secret}`);
      }
      for (const p of all) assert(path(p), `a span for ${p}: ${exported.slice(0, 2000)}`);
      const reset = path("/reset-password")!;
      assertEquals(attr(reset, "url.query"), "token=REDACTED&x=REDACTED");
      const full = String(attr(reset, "url.full"));
      assert(full.endsWith("/reset-password?token=REDACTED&x=REDACTED"), full);
      // each attribute is recorded once, already redacted (none appended after the original)
      const keys = (reset.attributes ?? []).map((a) => a.key);
      assertEquals(keys.filter((k) => k === "url.full").length, 1);
    }),
});
