import { assert, assertEquals } from "../../tests/assert.ts";
import { readBounded } from "./bounded_body.ts";
import { fetchTenantApi } from "../ai/upstream.ts";
import type { Services } from "../services.ts";
import type { EdgeSnapshot } from "../kv/snapshot.ts";
import { serveOnLoopback } from "../../tests/harness.ts";
import { createHttp1Client } from "../../edge/http1/client.ts";

/** An endless body of 16 KiB pieces, counting what was pulled and whether it was cancelled. */
function endless() {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      state.pulled += 16384;
      ctrl.enqueue(new Uint8Array(16384));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

Deno.test("readBounded() truncates or refuses at the bound and cancels the rest", async () => {
  const a = endless();
  const t = await readBounded(a.body, 40_000, { over: "truncate" });
  assertEquals([t.bytes.byteLength, t.truncated, t.tooLarge, a.state.cancelled], [
    40_000,
    true,
    false,
    true,
  ]);
  const b = endless();
  const r = await readBounded(b.body, 40_000, { over: "refuse" });
  assertEquals([r.bytes.byteLength, r.tooLarge, b.state.cancelled], [0, true, true]);
  assert(b.state.pulled <= 40_000 + 3 * 16384, `${b.state.pulled} bytes pulled`);
});

Deno.test("the AI upstream fetch stops reading an over-large body at the bound", async () => {
  const state = { sent: 0 };
  const server = serveOnLoopback(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(ctrl) {
          state.sent += 16384;
          // random: Deno.serve may gzip a JSON body, and zeros would hardly count
          ctrl.enqueue(crypto.getRandomValues(new Uint8Array(16384)));
        },
      }),
      { headers: { "content-type": "application/json" } },
    )
  );
  const client = createHttp1Client({ keepHeaders: true });
  const s = {
    config: {
      allowPrivateUpstreams: true,
      upstreamTimeoutMs: 3_000,
      edgeCacheMaxObjectBytes: 64 * 1024,
    },
    userUrlClient: client,
    resolveDns: Deno.resolveDns,
  } as unknown as Services;
  const snap = { api: { tokenEnc: null } } as unknown as EdgeSnapshot;
  try {
    const t0 = performance.now();
    const r = await fetchTenantApi(s, snap, new URL(`${server.url}/posts`));
    const ms = performance.now() - t0;
    assertEquals(r.kind === "error" && [r.code, r.message], [
      "upstream_error",
      "Upstream body too large",
    ]);
    assert(ms < 2_000, `${ms} ms`);
    // what the server produced before the connection closed: bounded, not endless
    assert(state.sent <= 16 * 1024 * 1024, `${state.sent} bytes sent`);
  } finally {
    client.close();
    await server.close();
  }
});
