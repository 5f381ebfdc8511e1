import { assert, assertEquals } from "../../tests/assert.ts";
import { readBounded } from "./bounded_body.ts";
import { fetchTenantApi } from "../ai/upstream.ts";
import type { Services } from "../services.ts";
import type { EdgeSnapshot } from "../kv/snapshot.ts";

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
  const up = endless();
  const s = {
    config: {
      allowPrivateUpstreams: true,
      upstreamTimeoutMs: 3_000,
      edgeCacheMaxObjectBytes: 64 * 1024,
    },
    fetch: () => Promise.resolve(new Response(up.body)),
  } as unknown as Services;
  const snap = { api: { tokenEnc: null } } as unknown as EdgeSnapshot;
  const t0 = performance.now();
  const r = await fetchTenantApi(s, snap, new URL("http://127.0.0.1:1/posts"));
  const ms = performance.now() - t0;
  assertEquals(r.kind === "error" && r.message, "Upstream body too large");
  assert(ms < 2_000, `${ms} ms`);
  assert(up.state.pulled <= 64 * 1024 + 3 * 16384, `${up.state.pulled} bytes pulled`);
});
