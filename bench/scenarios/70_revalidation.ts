/**
 * HTTP caching paths (docs/decisions.md "HTTP caching"), in process (tenants with a TTL of 0,
 * written straight into the snapshot, so every entry is expired when it is read, without waiting): a fixed-TTL hit, a
 * stale-while-revalidate hit (STALE at once, one background refresh per key), a 304
 * revalidation of an expired entry with an ETag, and the full refetch it replaces. The
 * origin is a loopback Deno.serve answering If-None-Match itself; the edge is createEdge
 * with its own HTTP client. `deno run -A bench/scenarios/70_revalidation.ts` prints the rows.
 */
import type { ResultRow, Scenario } from "../types.ts";
import { jsonBody } from "../origin.ts";
import { createEdge } from "../../edge/mod.ts";
import { upstreamClient } from "../../edge/upstream_client.ts";
import { loadConfig } from "../../lib/config.ts";
import { systemClock } from "../../lib/clock.ts";
import { silentLogger } from "../../lib/log.ts";
import { type EdgeSnapshot, writeSnapshot } from "../../lib/kv/snapshot.ts";
import { EMPTY_AI_SNAPSHOT } from "../../lib/ai/snapshot_types.ts";

const N = 2_000;
/** How long the origin holds the refresh of `/tagged-slow` (it is in flight while measured). */
const HOLD_MS = 5_000;
const TTL_S = 60;
const body = jsonBody();
const ETAG = '"bench-r1"';

function snapshot(
  slug: string,
  tenantId: number,
  origin: string,
  ttl: number,
  swr: number,
): EdgeSnapshot {
  return {
    v: 1,
    builtAt: new Date().toISOString(),
    tenantId,
    slug,
    cms: "generic",
    cloudName: null,
    cacheTtl: ttl,
    api: {
      origin,
      authMode: "none",
      authParam: null,
      tokenEnc: null,
      previewParam: "cachely-preview",
    },
    website: { origin: null, siteProxy: false },
    versions: { api: 1, assets: 1, html: 1 },
    domains: [],
    ai: EMPTY_AI_SNAPSHOT,
    experiments: [],
    caching: { cacheMode: "fixed", staleWhileRevalidate: swr, ignoreSetCookie: false },
  };
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Runs the cases; rows in ms per request (sequential requests: p50 and p99 only). */
export async function measure(): Promise<{ rows: ResultRow[]; notes: string[] }> {
  let bodies = 0;
  let notModified = 0;
  const origin = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const validated = path.startsWith("/tagged");
    if (path === "/tagged-slow" && bodies > 0 && req.headers.has("if-none-match")) {
      return new Promise<Response>((r) =>
        setTimeout(() => r(new Response(null, { status: 304, headers: { etag: ETAG } })), HOLD_MS)
      );
    }
    if (validated && req.headers.get("if-none-match") === ETAG) {
      notModified++;
      return new Response(null, { status: 304, headers: { etag: ETAG } });
    }
    bodies++;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (validated) headers.etag = ETAG;
    return new Response(body, { headers });
  });
  const base = `http://127.0.0.1:${origin.addr.port}`;
  const config = loadConfig({
    ENCRYPTION_KEY: btoa("bench-key-0123456789abcdef012345"),
    KV_PATH: ":memory:",
    PUBLIC_URL: "http://localhost:8000",
    PROXY_DOMAIN: "localhost:8000",
    ALLOW_PRIVATE_UPSTREAMS: "true",
    QUOTAS: "off",
  });
  const kv = await Deno.openKv(":memory:");
  await writeSnapshot(kv, snapshot("hit", 1, base, TTL_S, 60));
  await writeSnapshot(kv, snapshot("swr", 2, base, 0, 60));
  await writeSnapshot(kv, snapshot("noswr", 3, base, 0, 0));
  const edge = createEdge({
    config,
    kv,
    clock: systemClock,
    log: silentLogger,
    upstream: upstreamClient(config),
    resolveDns: Deno.resolveDns,
    usage: { record() {} },
    transform: null,
  }, { webCacheName: null });
  const info = { clientIp: "127.0.0.1" };
  const get = async (slug: string, path: string) => {
    const res = await edge.handle(new Request(`http://${slug}.localhost:8000/~api${path}`), {
      surface: "tenant",
      slug,
    }, info);
    await res.arrayBuffer();
    return res.headers.get("x-cache");
  };
  const settle = async () => {
    do await new Promise((r) => setTimeout(r, 1)); while (edge.cache.inflightCount > 0);
  };

  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const run = async (kase: string, slug: string, path: string, want: string, settleEach = true) => {
    await get(slug, path); // stored
    await get(slug, path); // hit once: the next hit gets its template
    const ms: number[] = [];
    let wrong = 0;
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const got = await get(slug, path);
      ms.push(performance.now() - t0);
      if (got !== want) wrong++;
      if (settleEach) await settle(); // each request finds the previous refresh done
    }
    ms.sort((a, b) => a - b);
    rows.push({
      case: kase,
      target: "cachely (in process)",
      rps: null, // sequential in process: latency, not throughput
      p50Ms: pct(ms, 0.5),
      p99Ms: pct(ms, 0.99),
      errors: wrong,
      note: `${N} sequential requests, each ${want}${wrong ? ` (${wrong} were not)` : ""}`,
    });
  };
  try {
    // Back to back: what a busy instance pays per request.
    await run("hit (fixed TTL)", "hit", "/tagged-hit", "HIT", false);
    await run("STALE while its refresh runs (SWR)", "swr", "/tagged-slow", "STALE", false);
    const n0 = notModified;
    const b0 = bodies;
    await run("304 revalidation of an expired entry", "noswr", "/tagged-304", "MISS", false);
    notes.push(
      `Revalidation: ${notModified - n0} 304s and ${bodies - b0} body for ${N} expired requests; ` +
        `${((notModified - n0) * body.byteLength / 1e6).toFixed(1)} MB of origin bytes saved.`,
    );
    await run("full refetch of an expired entry (no validator)", "noswr", "/plain", "MISS", false);
    // After a 1 ms pause (the refresh a STALE answer started has finished): an idle instance.
    await run("hit (fixed TTL), after a pause", "hit", "/tagged-hit", "HIT");
    const n1 = notModified;
    await run("STALE that starts the refresh (SWR), after a pause", "swr", "/tagged-swr", "STALE");
    notes.push(
      `Stale-while-revalidate: ${N} STALE answers, each followed by one background refresh ` +
        `(${notModified - n1} conditional requests answered 304).`,
    );
    await run("304 revalidation, after a pause", "noswr", "/tagged-304b", "MISS");
  } finally {
    edge.close();
    kv.close();
    await origin.shutdown();
  }
  return { rows, notes };
}

export const scenario: Scenario = {
  name: "revalidation",
  async run(ctx) {
    const { rows, notes } = await measure();
    for (const r of rows) ctx.log(`  ${r.case}: p50 ${r.p50Ms?.toFixed(3)} ms`);
    notes.push(
      "In process, sequential, not through wrk: the same 2 KB JSON in every case.",
    );
    return { title: "Revalidation and stale-while-revalidate", rows, notes };
  },
};

if (import.meta.main) {
  const { rows, notes } = await measure();
  for (const r of rows) {
    console.log(
      `${r.case.padEnd(52)} p50 ${(r.p50Ms! * 1000).toFixed(1).padStart(7)} µs  p99 ${
        (r.p99Ms! * 1000).toFixed(1).padStart(7)
      } µs  errors ${r.errors}`,
    );
  }
  for (const n of notes) console.log(n);
}
