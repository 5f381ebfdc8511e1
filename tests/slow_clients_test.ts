/**
 * Slow clients (issue 26): a request body that stops arriving is answered 408 after the
 * idle timeout and its stream cancelled, while other requests are served meanwhile.
 * Header timeouts and per-IP connection caps are not reachable from Deno.serve (see
 * docs/operations.md "Slow clients"); the front proxy bounds those.
 */
import { assert, assertEquals } from "./assert.ts";
import { readBodyText } from "../lib/http/validate.ts";
import { ApiError } from "../lib/errors.ts";

/** A body that sends `first` bytes and then nothing, recording whether it was cancelled. */
function stalledBody(first: number) {
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      ctrl.enqueue(new Uint8Array(first).fill(65));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

Deno.test("a stalled request body is a 408 after the idle timeout, the stream cancelled", async () => {
  const { body, state } = stalledBody(10);
  const req = new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-length": "100" },
  });
  const t0 = performance.now();
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    readBodyText(req, 1024, 150).then(() => "read", (e) => e),
    new Promise((r) => giveUp = setTimeout(() => r("still waiting after 3 s"), 3_000)),
  ]);
  clearTimeout(giveUp);
  const ms = performance.now() - t0;
  assert(outcome instanceof ApiError, String(outcome));
  assertEquals((outcome as ApiError).status, 408);
  assertEquals((outcome as ApiError).code, "request_timeout");
  assert(ms >= 140 && ms < 2_000, `${ms} ms`);
  assert(state.cancelled, "the body stream is cancelled");
});
