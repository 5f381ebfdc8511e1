/**
 * A fake upstream CMS API on a real loopback port. It records every request
 * (path, query, headers) and answers from routes the test sets, plus a few
 * built-in misbehaviours: /hang (never answers), /garbage (bytes that are not
 * the JSON they claim), /fail (500), /big?bytes=N, /cookie (sets a cookie). `startRawUpstream` speaks
 * broken HTTP over TCP: /close-early (declares more bytes than it sends) and
 * /not-http (no status line at all). Also `edgeFixture`: a real edge over in-memory KV
 * with a fixture snapshot, for edge tests that need no database.
 */
import { createEdge } from "../../edge/mod.ts";
import type { EdgeTarget, TransformRunner, UsageRecord } from "../../edge/types.ts";
import { type EdgeSnapshot, writeSnapshot } from "../../lib/kv/snapshot.ts";
import { EMPTY_AI_SNAPSHOT } from "../../lib/ai/snapshot_types.ts";
import { encryptSecret } from "../../lib/crypto/mod.ts";
import { ManualClock } from "../../lib/clock.ts";
import { createLogger } from "../../lib/log.ts";
import { serveOnLoopback, TEST_ENCRYPTION_KEY, testConfig } from "../harness.ts";
import { upstreamClient } from "../../edge/upstream_client.ts";
import type { UpstreamClient } from "../../lib/net/upstream_types.ts";

export type SeenRequest = { method: string; path: string; query: string; headers: Headers };
export type Route = (req: Request, url: URL) => Response | Promise<Response>;

export type FakeUpstream = {
  url: string;
  seen: SeenRequest[];
  /** Requests seen for a path (ignoring the query). */
  count(path: string): number;
  route(path: string, r: Route): void;
  /** Resolves all currently held /gate requests. */
  open(): void;
  close(): Promise<void>;
};

export function startUpstream(): FakeUpstream {
  const seen: SeenRequest[] = [];
  const routes = new Map<string, Route>();
  let gate = Promise.withResolvers<void>();
  const closing = Promise.withResolvers<void>();
  const server = serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    seen.push({
      method: req.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers: req.headers,
    });
    const r = routes.get(url.pathname);
    if (r) return await r(req, url);
    if (url.pathname === "/hang") {
      // hangs until the fake closes (shutdown waits for running handlers)
      await closing.promise;
      return new Response(null, { status: 499 });
    }
    if (url.pathname === "/gate") {
      await gate.promise;
      return Response.json({ gated: true });
    }
    if (url.pathname === "/fail") return new Response("boom", { status: 500 });
    if (url.pathname === "/garbage") {
      return new Response(new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0x22]), {
        headers: { "content-type": "application/json" },
      });
    }
    if (url.pathname === "/cookie") {
      return Response.json({ path: url.pathname, n: seen.length }, {
        headers: { "set-cookie": "upstream_session=abc; Path=/" },
      });
    }
    if (url.pathname === "/big") {
      const n = Number(url.searchParams.get("bytes") ?? 1000);
      return new Response(new Uint8Array(n).fill(97), {
        headers: { "content-type": "application/octet-stream" },
      });
    }
    return Response.json({ path: url.pathname, query: url.search, n: seen.length });
  });
  return {
    url: server.url,
    seen,
    count: (path) => seen.filter((s) => s.path === path).length,
    route: (path, r) => void routes.set(path, r),
    open() {
      gate.resolve();
      gate = Promise.withResolvers<void>();
    },
    close() {
      closing.resolve();
      gate.resolve();
      return server.close();
    },
  };
}

/** A TCP server that answers with broken HTTP, per request path. */
export function startRawUpstream(): { url: string; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const enc = new TextEncoder();
  (async () => {
    for await (const conn of listener) {
      (async () => {
        const buf = new Uint8Array(8192);
        const n = await conn.read(buf).catch(() => null);
        const line = new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0] ?? "";
        const path = line.split(" ")[1] ?? "/";
        const reply = path.startsWith("/close-early")
          ? 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"partial":'
          : "garbage garbage\r\n\r\n";
        await conn.write(enc.encode(reply)).catch(() => {});
        conn.close();
      })();
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return { url: `http://127.0.0.1:${port}`, close: () => listener.close() };
}

// ---- an edge over in-memory KV, without the database (edge/ never needs it) ----

/** The token stored for fixture tenants: must never appear in a response, log or key. */
export const CANARY = "CANARY-5f3e9a-token";

/** Snapshot fields to override; `api` is merged field by field. */
export type SnapshotOverrides = Partial<Omit<EdgeSnapshot, "api">> & {
  api?: Partial<EdgeSnapshot["api"]>;
};

export type EdgeFixtureOptions = {
  env?: Record<string, string>;
  snapshot?: SnapshotOverrides;
  transform?: TransformRunner | null;
  fetch?: typeof fetch;
  /** The edge's upstream client (default: upstreamClient() over `fetch` when given). */
  upstream?: UpstreamClient;
  resolveDns?: typeof Deno.resolveDns;
  webCacheName?: string | null;
  /** A KV shared with other fixtures (instances of one deployment); not closed by this one. */
  kv?: Deno.Kv;
};

/** A snapshot for a generic tenant whose API origin is `apiOrigin`, bearer token CANARY. */
export async function fixtureSnapshot(
  apiOrigin: string | null,
  over: SnapshotOverrides = {},
): Promise<EdgeSnapshot> {
  const { api, ...rest } = over;
  return {
    v: 1,
    builtAt: new Date().toISOString(),
    tenantId: 1,
    slug: "acme",
    cms: "generic",
    cloudName: null,
    cacheTtl: 60,
    website: { origin: null, siteProxy: false },
    versions: { api: 1, assets: 1, html: 1 },
    domains: [],
    ai: EMPTY_AI_SNAPSHOT,
    experiments: [],
    ...rest,
    api: {
      origin: apiOrigin,
      authMode: "bearer",
      authParam: null,
      tokenEnc: await encryptSecret(TEST_ENCRYPTION_KEY, CANARY),
      previewParam: "cachely-preview",
      ...api,
    },
  };
}

/** A real edge (createEdge) over in-memory KV with a ManualClock and captured usage and logs. */
export async function edgeFixture(apiOrigin: string | null, opts: EdgeFixtureOptions = {}) {
  const kv = opts.kv ?? await Deno.openKv(":memory:");
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
  const config = testConfig({ EDGE_SNAPSHOT_TTL_MS: "0", ...opts.env });
  const usage: UsageRecord[] = [];
  const logs: string[] = [];
  let snap = await fixtureSnapshot(apiOrigin, opts.snapshot);
  await writeSnapshot(kv, snap);
  const edge = createEdge({
    config,
    kv,
    clock,
    log: createLogger("debug", (l) => logs.push(l)),
    upstream: opts.upstream ?? upstreamClient(config, opts.fetch),
    resolveDns: opts.resolveDns ?? Deno.resolveDns,
    usage: { record: (r) => void usage.push(r) },
    transform: opts.transform ?? null,
  }, { webCacheName: opts.webCacheName ?? null });
  const origin = `http://acme.${config.proxyDomain}`;
  return {
    edge,
    kv,
    clock,
    config,
    usage,
    logs,
    origin,
    get snapshot() {
      return snap;
    },
    /** Rewrites the tenant's snapshot (as a management write would) and drops the memo. */
    async update(over: SnapshotOverrides) {
      const { api, ...rest } = over ?? {};
      snap = { ...snap, ...rest, api: { ...snap.api, ...api } };
      await writeSnapshot(kv, snap);
      edge.invalidate(snap.slug);
    },
    /** A request on the tenant host (or another surface). */
    request(path: string, init: RequestInit = {}, target?: EdgeTarget, clientIp = "203.0.113.9") {
      const t = target ?? { surface: "tenant", slug: snap.slug };
      const host = t.surface === "domain"
        ? t.hostname
        : `${t.slug}.${t.surface === "preview" ? "preview." : ""}${config.proxyDomain}`;
      return edge.handle(new Request(`http://${host}${path}`, init), t, { clientIp });
    },
    close() {
      edge.close();
      if (!opts.kv) kv.close();
    },
  };
}
